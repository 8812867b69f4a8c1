// Battle Zone on the phone: the board from above, the dice of the turn, a die's legal actions on the
// board (its pyramids, a move's target, an activation's range), the powers' steps, the supply, the
// exits, the exact odds of the next roll, and the board correction. What to do with the physical
// pieces is the page's top bar (#todo), from the events the engine names in moves_pieces.
(function () {
  const INK = {
    red: "#e5484d", yellow: "#f5d90a", green: "#30a46c", blue: "#3e63dd", black: "#1c1c1c",
    purple: "#8e4ec6", orange: "#f76b15", clear: "#d8ecff", cyan: "#00c2d7", white: "#f4f4f4",
  };
  const SIZE = { 1: "small", 2: "medium", 3: "large" };
  const FILES = "abcdefgh";
  const STEP = { N: [0, 1], NE: [1, 1], E: [1, 0], SE: [1, -1], S: [0, -1], SW: [-1, -1], W: [-1, 0], NW: [-1, 1] };
  const POWER = ["destroy", "control", "upgrade", "transport", "freeze"];
  let pick = { die: null, square: null };

  const xy = (sq) => [FILES.indexOf(sq[0]), Number(sq[1]) - 1];
  const sqName = (x, y) => (x >= 0 && x < 8 && y >= 0 && y < 8 ? FILES[x] + (y + 1) : null);
  const pct = (p) => (p * 100).toFixed(1) + " %";

  function dieColour(st, value) { return value === 6 ? "any colour" : st.colours[value - 1]; }

  function pieceSvg(st, p, flip) {
    const scale = { 1: 0.5, 2: 0.72, 3: 0.94 }[p.size];
    const half = 50 * scale;
    const fill = INK[p.colour] || "#999";
    const edge = p.colour === "black" ? "#999" : "#000a";
    let shape;
    if (p.controller === null) { // upright, seen from above: a square with its four faces
      const a = 50 - half, b = 50 + half;
      shape = '<rect x="' + a + '" y="' + a + '" width="' + 2 * half + '" height="' + 2 * half + '" fill="' + fill +
        '" stroke="' + edge + '" stroke-width="4"/><path d="M' + a + " " + a + "L" + b + " " + b + "M" + b + " " + a + "L" + a + " " + b +
        '" stroke="' + edge + '" stroke-width="3"/>';
    } else { // lying, pointing at the opponent: north (up) for seat 0, unless the board is turned
      const up = (p.controller === 0) !== flip;
      const tip = up ? 50 - half : 50 + half, base = up ? 50 + half : 50 - half;
      shape = '<polygon points="50,' + tip + " " + (50 + half * 0.8) + "," + base + " " + (50 - half * 0.8) + "," + base +
        '" fill="' + fill + '" stroke="' + edge + '" stroke-width="4"/>';
    }
    return '<svg viewBox="0 0 100 100" aria-hidden="true">' + shape + "</svg>";
  }

  function describe(st, p) {
    const how = p.controller === null ? "upright" : "lying, pointing at " + st.players[1 - p.controller];
    return SIZE[p.size] + " " + p.colour + ", " + how;
  }

  function rangeOf(st, sq, pips) {
    const [cx, cy] = xy(sq);
    const out = new Set();
    for (let x = 0; x < 8; x++) for (let y = 0; y < 8; y++) {
      const d = Math.max(Math.abs(x - cx), Math.abs(y - cy));
      if (st.options.range === "ring" ? d === pips : d >= 1 && d <= pips) out.add(sqName(x, y));
    }
    return out;
  }

  function moveEnd(st, a) {
    const p = st.board[a.square];
    let [x, y] = xy(a.square);
    const [dx, dy] = STEP[a.direction];
    for (let i = 0; i < p.size; i++) { x += dx; y += dy; if (y < 0 || y > 7) return "off"; }
    return sqName(x, y);
  }

  function label(st, a) {
    const p = st.board[a.square];
    switch (a.type) {
      case "place": return "Place a small " + a.colour + " on " + a.square;
      case "take": return "Take control of the " + SIZE[p.size] + " " + p.colour;
      case "upgrade": return "Upgrade to a " + SIZE[p.size + 1] + " " + p.colour;
      case "activate": {
        const pips = p.controller === null ? p.size - 1 : p.size;
        return "Activate: " + POWER[st.colours.indexOf(p.colour)] + ", range " + pips + (p.controller === null ? " (downgrade)" : " (stand up)");
      }
      case "move": { const end = moveEnd(st, a); return "Move " + a.direction + (end === "off" ? " off the board (exit)" : " to " + end); }
      default: return a.type;
    }
  }

  function render(s, el, ui) {
    const st = s.state;
    const flip = s.seat === 1;
    const dieActions = s.legal.filter((a) => "die" in a);
    const steps = s.legal.filter((a) => ["transport", "put", "grow"].includes(a.type));
    const others = s.legal.filter((a) => ["end", "stop", "draw"].includes(a.type));
    if (pick.die !== null && !dieActions.some((a) => a.die === pick.die)) pick = { die: null, square: null };
    const mine = dieActions.filter((a) => a.die === pick.die);
    const here = mine.filter((a) => a.square === pick.square);
    const can = new Set((pick.die !== null ? mine : steps).map((a) => a.square));
    const targets = new Set(here.filter((a) => a.type === "move").map((a) => moveEnd(st, a)));
    const activation = here.find((a) => a.type === "activate");
    let ring = new Set();
    if (activation) {
      const p = st.board[activation.square];
      ring = rangeOf(st, activation.square, p.controller === null ? p.size - 1 : p.size);
    } else if (st.pending) ring = new Set(st.pending.zone || []);

    let html = "";
    if (st.dice.length) {
      html += '<div class="card"><h2>Dice' + (s.to_move === s.seat ? ": tap one" : "") + '</h2><div class="row bz-dice">' + st.dice.map((d, i) => {
        const live = !d.used && dieActions.some((a) => a.die === i);
        const ink = d.value === 6 ? "conic-gradient(#e5484d, #f5d90a, #30a46c, #3e63dd, #1c1c1c, #e5484d)" : INK[dieColour(st, d.value)];
        return '<button class="bz-die' + (pick.die === i ? " chosen" : "") + (d.used ? " used" : "") + '" data-die="' + i + '"' +
          (live ? "" : " disabled") + ' aria-label="die ' + (i + 1) + ": " + d.value + " (" + dieColour(st, d.value) + ")" + (d.used ? ", used" : "") + '">' +
          '<span class="swatch" style="background:' + ink + '"></span>' + d.value + "</button>";
      }).join("") + "</div></div>";
    }
    // the board, rank 8 at the top for the first player, turned for the second
    html += '<div class="card"><div class="bz-board" role="grid">';
    for (let row = 0; row < 8; row++) {
      const y = flip ? row : 7 - row;
      for (let col = 0; col < 8; col++) {
        const x = flip ? 7 - col : col;
        const sq = sqName(x, y);
        const p = st.board[sq];
        const cls = ["bz-sq", (x + y) % 2 ? "light" : "dark"];
        if (y === 0 || y === 7) cls.push("line");
        if (can.has(sq)) cls.push("can");
        if (pick.square === sq) cls.push("chosen");
        if (targets.has(sq)) cls.push("target");
        if (ring.has(sq)) cls.push("range");
        const name = sq + (p ? ": " + describe(st, p) : "");
        html += '<button class="' + cls.join(" ") + '" data-sq="' + sq + '" aria-label="' + name + '" title="' + name + '">' +
          (p ? pieceSvg(st, p, flip) : "") + "</button>";
      }
    }
    html += "</div><p><small>" + Companion.esc(st.players[flip ? 1 : 0]) + "'s starting line at the bottom, " +
      Companion.esc(st.players[flip ? 0 : 1]) + "'s at the top.</small></p>";
    if (here.some((a) => a.type === "move" && moveEnd(st, a) === "off")) html += "<p><small>A move past the far line exits the pyramid.</small></p>";
    html += '<div id="bz-actions">';
    if (pick.die !== null && pick.square === null) html += "<p>Tap a highlighted square.</p>";
    html += '<div class="row">' + here.map((a, i) => '<button class="primary" data-here="' + i + '">' + Companion.esc(label(st, a)) + "</button>").join("") + "</div>";
    if (steps.length) html += "<p>" + (steps[0].type === "put" ? "Tap an empty square in range to put the pyramid." :
      steps[0].type === "grow" ? "Tap the pyramid to upgrade." : "Tap a pyramid in range to transport, or stop.") + "</p>";
    html += '<div class="row">' + others.map((a, i) => '<button data-other="' + i + '">' +
      ({ end: "End the turn (leave the dice left)", stop: "Stop the transport", draw: "End the game as a draw" }[a.type]) + "</button>").join("") + "</div></div></div>";
    html += extras(s, st);
    el.innerHTML = html;

    el.querySelectorAll("button[data-die]").forEach((b) => {
      b.onclick = () => { pick = { die: Number(b.dataset.die), square: null }; ui.render(); };
    });
    el.querySelectorAll("button[data-sq]").forEach((b) => {
      b.onclick = async () => {
        const sq = b.dataset.sq;
        if (pick.die === null) {
          const step = steps.find((a) => a.square === sq);
          if (step) await ui.act(step);
          return;
        }
        if (can.has(sq)) { pick.square = sq; ui.render(); }
      };
    });
    el.querySelectorAll("button[data-here]").forEach((b) => {
      b.onclick = async () => { if (await ui.act(here[Number(b.dataset.here)])) pick = { die: null, square: null }; };
    });
    el.querySelectorAll("button[data-other]").forEach((b) => {
      b.onclick = async () => { if (await ui.act(others[Number(b.dataset.other)])) pick = { die: null, square: null }; };
    });
    wireCorrection(s, el, ui);
  }

  function extras(s, st) {
    let html = '<div class="card"><h2>Exits</h2>';
    st.players.forEach((name, seat) => {
      const out = new Set(st.exited[seat].map((p) => p.colour));
      html += '<p class="bz-exits" data-seat="' + seat + '">' + Companion.esc(name) + ": " + st.colours.map((c) =>
        '<span class="swatch' + (out.has(c) ? "" : " missing") + '" title="' + c + (out.has(c) ? " exited" : " not yet") + '" style="background:' + INK[c] + '"></span>').join("") +
        " " + out.size + "/5</p>";
    });
    const odds = st.odds;
    html += '<p id="bz-odds">Chance the next roll holds a die of a given colour (its face or a 6): <b>' + pct(odds.one_colour["1"].p) +
      "</b> (" + odds.one_colour["1"].exact + "); two or more: " + pct(odds.one_colour["2"].p) + " (" + odds.one_colour["2"].exact + ").";
    if (odds.missing) html += " A die of a colour you still need (" + odds.missing.colours.join(", ") + "): <b>" + pct(odds.missing.p) + "</b> (" + odds.missing.exact + ").";
    html += "</p></div>";
    html += '<div class="card"><h2>Supply</h2><table class="bz-supply"><tr><th></th><th>S</th><th>M</th><th>L</th></tr>' +
      st.colours.map((c) => "<tr><td><span class=\"swatch\" style=\"background:" + INK[c] + '"></span>' + c + "</td>" +
        st.supply[c].map((n) => "<td>" + n + "</td>").join("") + "</tr>").join("") + "</table></div>";
    if (s.phone && s.phone.host && !s.over) { // the host's phone keeps the board in step
      const squares = [];
      for (let y = 1; y <= 8; y++) for (const f of FILES) squares.push(f + y);
      html += '<details class="card" id="bz-correct"><summary>Correct the board</summary><p><small>When the pyramids on the table and here disagree: set one square as it really is. The correction is logged.</small></p>' +
        '<label>Square <select id="bz-fix-square">' + squares.map((q) => "<option>" + q + "</option>").join("") + "</select></label>" +
        '<label>Pyramid <select id="bz-fix-piece"><option value="">empty</option>' + st.colours.map((c) => [1, 2, 3].map((n) =>
          '<option value="' + c + ":" + n + '">' + SIZE[n] + " " + c + "</option>").join("")).join("") + "</select></label>" +
        '<label>Standing <select id="bz-fix-way"><option value="">upright</option><option value="0">lying for ' + Companion.esc(st.players[0]) +
        '</option><option value="1">lying for ' + Companion.esc(st.players[1]) + "</option></select></label>" +
        '<button class="primary" id="bz-fix">Set the square</button></details>';
    }
    return html;
  }

  function wireCorrection(s, el, ui) {
    const go = el.querySelector("#bz-fix");
    if (!go) return;
    go.onclick = () => {
      const chosen = el.querySelector("#bz-fix-piece").value;
      const way = el.querySelector("#bz-fix-way").value;
      const piece = chosen ? { colour: chosen.split(":")[0], size: Number(chosen.split(":")[1]), controller: way === "" ? null : Number(way) } : null;
      ui.act({ type: "correct", square: el.querySelector("#bz-fix-square").value, piece });
    };
  }

  function summary(s, esc) {
    const sum = s.summary;
    const head = sum.draw ? "A draw: the game stalled without exits." : esc(sum.winner_name) + " wins: a pyramid of each colour is off the board.";
    return "<h2>Result</h2><p><b>" + head + "</b></p>" + sum.players.map((p) =>
      "<p>" + esc(p.name) + ": exited " + p.exited.length + " pyramid(s), colours " + esc(p.colours.join(", ") || "none") + "</p>").join("");
  }

  Companion.games["battle-zone"] = {
    render, summary,
    swatch: (s, seat) => '<span class="swatch" style="background:' + (seat === 0 ? "#ddd" : "#555") + '"></span>',
  };
})();
