// Dog Eat Dog on the phone: the pyramids as they stand on the table, choosing attacker and target with
// the exact odds, the Treehouse follow-ups, and the final trees and scores.
(function () {
  const INK = {
    red: "#e5484d", yellow: "#f5d90a", green: "#30a46c", blue: "#3e63dd", black: "#1c1c1c",
    purple: "#8e4ec6", orange: "#f76b15", clear: "#d8ecff", cyan: "#00c2d7", white: "#f4f4f4",
  };
  const SIZE = { 1: "small", 2: "medium", 3: "large" };
  const HEIGHT = { 1: 22, 2: 32, 3: 42 };
  let pick = { attacker: null, target: null, treehouse: false };

  const nameOf = (s, id) => "the " + SIZE[s.state.pyramids[id].size] + " " + s.state.pyramids[id].colour;

  function triangle(p) {
    const h = HEIGHT[p.size], w = Math.round(h * 0.8);
    const stroke = p.colour === "black" ? "#888" : "#0009";
    return '<svg width="' + w + '" height="' + h + '" viewBox="0 0 ' + w + " " + h + '" aria-hidden="true">' +
      '<polygon points="' + w / 2 + ",1 " + (w - 1) + "," + (h - 1) + " 1," + (h - 1) + '" fill="' + (INK[p.colour] || "#999") +
      '" stroke="' + stroke + '" stroke-width="1.5"/></svg>';
  }

  function attacks(s) { return s.legal.filter((a) => a.type === "attack"); }

  function pieceButton(s, id, can, chosen) {
    const p = s.state.pyramids[id];
    const cls = "pyr" + (p.status === "tipped" ? " tipped" : "") + (can ? " can" : "") + (chosen ? " chosen" : "");
    const label = nameOf(s, id) + (p.status === "tipped" ? " (tipped)" : "");
    return '<button class="' + cls + '" data-id="' + id + '"' + (can ? "" : " disabled") + ' aria-label="' + label +
      '" title="' + label + '">' + triangle(p) + "</button>";
  }

  function render(s, el, ui) {
    const st = s.state;
    const legalAttacks = attacks(s);
    const myAttackers = new Set(legalAttacks.map((a) => a.attacker));
    if (pick.attacker && !myAttackers.has(pick.attacker)) pick = { attacker: null, target: null, treehouse: false };
    const targets = new Set(legalAttacks.filter((a) => a.attacker === pick.attacker).map((a) => a.target));
    if (pick.target && !targets.has(pick.target)) pick.target = null;
    const inStack = new Set(st.stacks.flat());

    let html = "";
    for (const [seat, player] of st.players.entries()) {
      const lone = Object.keys(st.pyramids).filter((id) => st.pyramids[id].colour === player.colour && !inStack.has(id) &&
        (st.pyramids[id].status === "upright" || st.pyramids[id].status === "tipped"));
      const aside = Object.keys(st.pyramids).filter((id) => st.pyramids[id].captured_by === seat && st.pyramids[id].status === "captured");
      html += '<div class="card group" data-player="' + seat + '"><h2><span class="swatch" style="background:' + INK[player.colour] + '"></span>' +
        ui.esc(player.name) + (st.active === seat ? " — to move" : "") + "</h2>";
      html += '<div class="pieces">' + (lone.length ? lone.map((id) => pieceButton(s, id,
        myAttackers.has(id) || targets.has(id), id === pick.attacker || id === pick.target)).join("") : "<small>no lone pyramids</small>") + "</div>";
      if (aside.length) html += "<p><small>Set aside: " + aside.map((id) => nameOf(s, id)).join(", ") + "</small></p>";
      html += "</div>";
    }
    if (st.stacks.length) {
      html += '<div class="card"><h2>Stacks</h2><div class="pieces">';
      for (const stack of st.stacks) {
        const top = stack[stack.length - 1];
        const owner = st.players.find((p) => p.colour === st.pyramids[top].colour);
        const can = targets.has(top);
        html += '<button class="stack' + (can ? " can" : "") + (pick.target === top ? " chosen" : "") + '" data-id="' + top + '"' +
          (can ? "" : " disabled") + ' aria-label="the stack under ' + nameOf(s, top) + '">' +
          stack.slice().reverse().map((id) => triangle(st.pyramids[id])).join("") +
          "<small>" + ui.esc(owner ? owner.name : "") + "</small></button>";
      }
      html += "</div></div>";
    }
    // the player's own choices first, so they are on screen without scrolling
    el.innerHTML = '<div class="card" id="ded-actions"></div>' + html;

    el.querySelectorAll("button[data-id]").forEach((b) => {
      b.onclick = () => {
        const id = b.dataset.id;
        if (myAttackers.has(id) && !(pick.attacker && targets.has(id))) pick = { attacker: id, target: null, treehouse: false };
        else if (targets.has(id)) pick.target = id;
        ui.render();
      };
    });
    renderActions(s, el.querySelector("#ded-actions"), ui, legalAttacks);
  }

  function label(s, a) {
    switch (a.type) {
      case "pass": return "Do not attack this turn";
      case "skip": return "Do not use the Treehouse face";
      case "swap": return "SWAP the tops of the stacks under " + nameOf(s, a.stacks[0]) + " and " + nameOf(s, a.stacks[1]);
      case "dig": return "DIG " + nameOf(s, a.pyramid) + " to the top of its stack";
      case "aim": return "AIM: " + (a.tip ? "tip " : "stand up ") + nameOf(s, a.pyramid);
      default: return a.type;
    }
  }

  function renderActions(s, box, ui, legalAttacks) {
    const others = s.legal.filter((a) => a.type !== "attack");
    if (!s.legal.length) { box.hidden = true; return; }
    box.hidden = false;
    let html = "";
    if (legalAttacks.length) {
      if (!pick.attacker) html += "<p>Tap one of your pyramids to attack with.</p>";
      else if (!pick.target) html += "<p>Attack with " + nameOf(s, pick.attacker) + ": now tap a target.</p>";
      else {
        const canTreehouse = legalAttacks.some((a) => a.attacker === pick.attacker && a.target === pick.target && a.treehouse);
        html += "<p>" + ui.esc(nameOf(s, pick.attacker)) + " attacks " + ui.esc(nameOf(s, pick.target)) + "</p>" +
          '<p class="odds" id="odds">…</p>' +
          (canTreehouse ? '<label><input type="checkbox" id="th"' + (pick.treehouse ? " checked" : "") + "> use the Treehouse die</label>" : "") +
          '<button class="primary big" id="attack">Attack</button>';
      }
    }
    html += '<div class="row">' + others.map((a, i) => '<button data-other="' + i + '">' + ui.esc(label(s, a)) + "</button>").join("") + "</div>";
    box.innerHTML = html;
    box.querySelectorAll("button[data-other]").forEach((b) => { b.onclick = () => ui.act(others[Number(b.dataset.other)]); });
    const th = box.querySelector("#th");
    if (th) th.onchange = () => { pick.treehouse = th.checked; ui.render(); };
    const go = box.querySelector("#attack");
    if (go) {
      go.onclick = async () => {
        const action = legalAttacks.find((a) => a.attacker === pick.attacker && a.target === pick.target && !!a.treehouse === pick.treehouse);
        if (action && await ui.act(action)) pick = { attacker: null, target: null, treehouse: false };
      };
      const query = "?attacker=" + pick.attacker + "&target=" + pick.target + "&treehouse=" + (pick.treehouse ? 1 : 0);
      ui.api("/odds" + query).then((o) => {
        const el = document.getElementById("odds");
        if (o && el) el.textContent = "Attack succeeds " + (o.p_attack_succeeds * 100).toFixed(1) + " %";
      });
    }
  }

  function summary(s, esc) {
    const sum = s.summary;
    const rows = sum.players.slice().sort((a, b) => b.score - a.score).map((r) => {
      const trees = r.trees.map((t) => (t.kind === "mono" ? "mono " + t.colour : "mixed") + " tree (" + t.points + ")").join(", ");
      return "<tr><td>" + esc(r.name) + "</td><td><b>" + r.score + "</b></td><td><small>" + esc(trees || "no trees") +
        (r.loose.length ? "; " + r.loose.length + " loose" : "") + "</small></td></tr>";
    }).join("");
    return "<h2>Scores</h2><p><b>" + esc(sum.winner_names.join(" and ")) + (sum.winner_names.length > 1 ? " share the win" : " wins") +
      '</b></p><table class="scores"><tr><th>Player</th><th>Score</th><th>Trees</th></tr>' + rows + "</table>";
  }

  Companion.games["dog-eat-dog"] = {
    render, summary,
    swatch: (s, seat) => '<span class="swatch" style="background:' + INK[s.state.players[seat].colour] + '"></span>',
  };
})();
