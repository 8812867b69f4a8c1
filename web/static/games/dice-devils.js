// Dice Devils on the phone: your devil and your (private) items, the rank draw and the items turned face
// up (chance: any seated phone enters them; a blind pick only the two who see it), claims in rank order, the fights with exact odds and totals,
// the winners' decisions on the deciding phone only, and the final count.
(function () {
  const RANKS = ["oberteufel", "spielteufel", "fehlerteufel", "putzteufel", "springteufel", "satansbraten"];
  const TITLE = {
    oberteufel: "Oberteufel", spielteufel: "Spielteufel", fehlerteufel: "Fehlerteufel",
    putzteufel: "Putzteufel", springteufel: "Springteufel", satansbraten: "Satansbraten",
  };
  // Each devil's name in English beside the German one.
  const GLOSS = {
    oberteufel: "Head Devil", spielteufel: "Gambling Devil", fehlerteufel: "Blunder Devil",
    putzteufel: "Clean Freak", springteufel: "Jumping Devil", satansbraten: "Holy Terror",
  };
  // Item pictures as inline SVG (24 x 24, drawn in the text colour): no emoji font needed.
  const PIC = {
    bed: '<rect x="2" y="12" width="20" height="5" rx="1"/><rect x="4" y="8" width="7" height="4" rx="1.5"/><rect x="2" y="17" width="2" height="3"/><rect x="20" y="17" width="2" height="3"/>',
    heater: '<rect x="3" y="6" width="3" height="13" rx="1.5"/><rect x="8" y="6" width="3" height="13" rx="1.5"/><rect x="13" y="6" width="3" height="13" rx="1.5"/><rect x="18" y="6" width="3" height="13" rx="1.5"/><rect x="2" y="12" width="20" height="2"/>',
    ear_muffs: '<path d="M5 14a7 7 0 0 1 14 0" fill="none" stroke="currentColor" stroke-width="2.2"/><circle cx="5" cy="15.5" r="3.5"/><circle cx="19" cy="15.5" r="3.5"/>',
    scarf: '<rect x="3" y="5" width="18" height="5" rx="2"/><rect x="13" y="9" width="5" height="12" rx="1"/><path d="M13 21h5" stroke="currentColor" stroke-width="2" stroke-dasharray="1 1"/>',
    tea_cup: '<path d="M3 9h13v4a6 6 0 0 1-6 6H9a6 6 0 0 1-6-6z"/><path d="M16 10.5h2a2.5 2.5 0 0 1 0 5h-2.5" fill="none" stroke="currentColor" stroke-width="2"/><rect x="2" y="20" width="16" height="1.8" rx=".9"/>',
    hot_water_bottle: '<rect x="5" y="7" width="14" height="15" rx="5"/><rect x="10" y="2.5" width="4" height="5" rx="1"/>',
    night_cap: '<path d="M4 18L15 4l5 14z"/><circle cx="15" cy="4" r="2.2"/><rect x="3" y="17" width="18" height="3.5" rx="1.5"/>',
    chili_pepper: '<path d="M7 7c3 0 4 3 5 6s4 6 9 7c-6 2-13-1-15-7-1-3-1-6 1-6z"/><path d="M7 7c0-2 1-4 4-4" fill="none" stroke="currentColor" stroke-width="2"/>',
    hot_bath: '<path d="M2 11h20v3a6 6 0 0 1-6 6H8a6 6 0 0 1-6-6z"/><path d="M5 11V5.5a2 2 0 0 1 4 0" fill="none" stroke="currentColor" stroke-width="2"/><path d="M6 20l-1 2M18 20l1 2" stroke="currentColor" stroke-width="2"/>',
    iron: '<path d="M2 18h19l-2-8a4 4 0 0 0-4-3H7v2h7.5l.8 3H7a5 5 0 0 0-5 5z"/>',
    grill: '<path d="M3 9h18a9 7 0 0 1-18 0z"/><path d="M8 15l-3 7M16 15l3 7M12 16v6" stroke="currentColor" stroke-width="2"/>',
  };
  // type -> [words, value]; the order of the box (1-point types first).
  const ITEMS = {
    bed: ["bed", 1], heater: ["heater", 1], ear_muffs: ["ear muffs", 1], scarf: ["scarf", 1],
    tea_cup: ["tea cup", 1], hot_water_bottle: ["hot-water bottle", 1], night_cap: ["night cap", 1],
    chili_pepper: ["chili pepper", 2], hot_bath: ["hot bath", 2], iron: ["iron", 3], grill: ["grill", 3],
  };
  const STEP = {
    reveal: "dice are being revealed", spielteufel: "the Spielteufel decides", force: "forced re-roll",
    tie: "tie: re-roll", ability: "the winner may use the ability", swap: "the winner may swap rank", done: "decided",
  };

  let rankPick = { key: null, ranks: [] }; // the rank draw being entered on this phone
  let revealPick = { key: null, items: [] }; // the items turned face up being entered on this phone
  const odds = { key: null, value: null, pending: null };

  const rankNo = (r) => RANKS.indexOf(r) + 1;
  const itemName = (t) => (ITEMS[t] ? ITEMS[t][0] : t);

  function itemChip(t, esc, extra) {
    const it = ITEMS[t] || [t, 0];
    const pic = '<svg class="dd-pic" viewBox="0 0 24 24" width="22" height="22" fill="currentColor" aria-hidden="true">' + (PIC[t] || "") + "</svg>";
    return '<span class="dd-item v' + it[1] + '">' + pic + esc(it[0]) +
      '<span class="dd-val" title="' + it[1] + ' point' + (it[1] > 1 ? "s" : "") + '">' + it[1] + "</span>" + (extra || "") + "</span>";
  }

  const gloss = (r) => '<small class="dd-gloss">' + GLOSS[r] + "</small>";

  // "Alice (Oberteufel)", or just the name before the ranks are drawn.
  function who(s, seat) {
    const r = s.state.ranks[seat];
    return s.table.players[seat] + (r ? " (" + TITLE[r] + ")" : "");
  }

  function byRank(s, seats) { return seats.slice().sort((a, b) => rankNo(s.state.ranks[a]) - rankNo(s.state.ranks[b])); }

  function grouped(items) {
    const out = {};
    for (const t of items) out[t] = (out[t] || 0) + 1;
    return Object.keys(out).sort((a, b) => Object.keys(ITEMS).indexOf(a) - Object.keys(ITEMS).indexOf(b)).map((t) => [t, out[t]]);
  }

  // ---- your devil ---------------------------------------------------------------------------------
  function youCard(s, esc) {
    const you = s.state.you;
    if (!you) {
      if (s.seat === null) return "";
      return '<div class="card dd-you" id="dd-you"><h2>Your devil</h2><p>Not drawn yet: draw a grab tile.</p></div>';
    }
    let html = '<div class="card dd-you" id="dd-you"><h2>Your devil</h2>' +
      '<p class="dd-me"><span class="dd-rank big">' + rankNo(you.rank) + "</span><b>" + esc(you.title) + "</b> " + gloss(you.rank) + "</p>" +
      '<p class="dd-ability">' + esc(you.ability) + "</p>";
    if (you.next_rank && you.next_rank !== you.rank) html += '<p class="dd-next">From next round: <b>' + esc(TITLE[you.next_rank]) + "</b></p>";
    const rows = grouped(you.collection);
    html += "<h2>Your items <small>(" + you.collection.length + ", " + you.points + " points, only you see them)</small></h2>";
    html += rows.length ? '<div class="dd-items">' + rows.map(([t, n]) =>
      itemChip(t, esc, n > 1 ? '<b class="dd-count">×' + n + "</b>" + (n >= 3 ? '<span class="dd-triple">+' + 3 * Math.floor(n / 3) + "</span>" : "") : "")).join("") + "</div>"
      : "<p><small>None yet.</small></p>";
    return html + "</div>";
  }

  // ---- the rank draw (chance) ---------------------------------------------------------------------
  function rankDrawCard(s, esc) {
    const st = s.state;
    const key = s.table.id + ":ranks";
    if (rankPick.key !== key) rankPick = { key, ranks: st.players.map(() => "") };
    let html = '<div class="card dd-draw" id="dd-ranks"><h2>Rank draw</h2><p>' + esc(st.draw.reason) + ".</p>";
    if (s.seat === null) return html + "<p><small>A seated phone enters the ranks.</small></p></div>";
    html += st.players.map((name, seat) =>
      '<label class="dd-pick">' + esc(name) + ' <select data-rank-seat="' + seat + '" aria-label="' + esc(name) + "'s rank\">" +
      '<option value="">which devil?</option>' +
      st.devils.map((r) => '<option value="' + r + '"' + (rankPick.ranks[seat] === r ? " selected" : "") + ">" + rankNo(r) + " · " + TITLE[r] + " (" + GLOSS[r] + ")</option>").join("") +
      "</select></label>").join("");
    const ready = rankPick.ranks.every((r) => r);
    return html + '<button class="primary big" id="dd-ranks-ok"' + (ready ? "" : " disabled") + ">These are the ranks</button></div>";
  }

  function wireRankDraw(el, ui) {
    el.querySelectorAll("select[data-rank-seat]").forEach((sel) => {
      sel.onchange = () => {
        const seat = Number(sel.dataset.rankSeat);
        const other = rankPick.ranks.indexOf(sel.value);
        if (sel.value && other >= 0 && other !== seat) rankPick.ranks[other] = rankPick.ranks[seat]; // one tile each: swap
        rankPick.ranks[seat] = sel.value;
        ui.render();
      };
    });
    const ok = el.querySelector("#dd-ranks-ok");
    if (ok) ok.onclick = async () => { if (await ui.act({ type: "draw_ranks", ranks: rankPick.ranks.slice() })) rankPick.key = null; };
  }

  // ---- the items turned face up (chance) ----------------------------------------------------------
  function revealCard(s, esc) {
    const st = s.state;
    const n = st.draw.count;
    const key = s.table.id + ":reveal:" + st.round;
    if (revealPick.key !== key) revealPick = { key, items: [] };
    let html = '<div class="card dd-draw" id="dd-reveal"><h2>Round ' + st.round + ": items face up</h2><p>" + esc(st.draw.reason) + ".</p>";
    if (s.seat === null) return html + "<p><small>A seated phone enters them.</small></p></div>";
    html += '<p class="dd-chosen">' + (revealPick.items.length
      ? revealPick.items.map((t, i) => '<button class="dd-chip" data-unpick="' + i + '" aria-label="remove ' + esc(itemName(t)) + '">' +
        itemChip(t, esc) + " ✕</button>").join("")
      : "<small>Tap the " + n + " item" + (n > 1 ? "s" : "") + " turned face up.</small>") + "</p>";
    const full = revealPick.items.length >= n;
    const left = st.supply_types || Object.keys(ITEMS); // types run out of the supply are not offered
    html += '<div class="dd-grid">' + Object.keys(ITEMS).filter((t) => left.includes(t)).map((t) =>
      '<button class="dd-type" data-type="' + t + '"' + (full ? " disabled" : "") + ">" + itemChip(t, esc) + "</button>").join("") + "</div>";
    return html + '<button class="primary big" id="dd-reveal-ok"' + (revealPick.items.length === n ? "" : " disabled") + ">" +
      (revealPick.items.length === n ? "Turned up: " + esc(revealPick.items.map(itemName).join(", ")) : revealPick.items.length + " of " + n + " entered") + "</button></div>";
  }

  function wireReveal(el, ui) {
    el.querySelectorAll("#dd-reveal button[data-type]").forEach((b) => {
      b.onclick = () => { revealPick.items.push(b.dataset.type); ui.render(); };
    });
    el.querySelectorAll("#dd-reveal button[data-unpick]").forEach((b) => {
      b.onclick = () => { revealPick.items.splice(Number(b.dataset.unpick), 1); ui.render(); };
    });
    const ok = el.querySelector("#dd-reveal-ok");
    if (ok) ok.onclick = async () => { if (await ui.act({ type: "reveal", items: revealPick.items.slice() })) revealPick.key = null; };
  }

  // ---- the Putzteufel's blind pick (chance) -------------------------------------------------------
  function blindPickCard(s, esc) {
    const st = s.state, d = st.draw;
    let html = '<div class="card dd-draw" id="dd-blind"><h2>Blind pick</h2><p>' + esc(d.reason) + ".</p>";
    let types = [];
    if (s.seat === d.from) {
      types = grouped(st.collections[s.seat] || []).map(([t]) => t);
      html += "<p>Which of your items did " + esc(who(s, d.player)) + " draw?</p>";
    } else if (s.seat === d.player) {
      types = Object.keys(ITEMS);
      html += "<p>Which item was drawn from " + esc(who(s, d.from)) + "'s pile?</p>";
    } else {
      return html + "<p><small>Only " + esc(who(s, d.player)) + " and " + esc(who(s, d.from)) +
        " see the tile drawn: one of their phones enters it.</small></p></div>";
    }
    return html + '<div class="dd-grid">' + types.map((t) => '<button class="dd-type" data-pick="' + t + '">' + itemChip(t, esc) + "</button>").join("") + "</div></div>";
  }

  // ---- decisions: only on the deciding phone (they are in its `legal`) -----------------------------
  function label(s, a) {
    const st = s.state, d = st.decision;
    const name = (seat) => who(s, seat);
    switch (a.type) {
      case "force_reroll": {
        const fight = st.fights[st.fight];
        const others = fight.fighters.filter((x) => x !== d.player).map((x) => s.table.players[x]);
        return "Force " + others.join(" and ") + " to re-roll";
      }
      case "accept": return "Accept the dice";
      case "steal": return a.item ? "Steal the " + itemName(a.item) + " from " + name(a.from) : "Steal a 1-point item from " + name(a.from);
      case "give": return "Give the " + itemName(a.item);
      case "exchange": return "Give your " + itemName(a.give) + (a.take ? ", take the " + itemName(a.take) : ", draw one blind");
      case "swap": return "Swap rank with " + name(a.with) + " (from next round)";
      case "pass":
        return { steal: "Don't steal", exchange: "Don't exchange", swap: "Keep my rank" }[d.kind] || "Pass";
      default: return a.type;
    }
  }

  function decisionCard(s, esc) {
    const st = s.state, d = st.decision;
    if (!s.legal.length) {
      return '<div class="card dd-wait" id="dd-decision"><p>Waiting for ' + esc(who(s, d.player)) + ": " + esc(d.text.replace(/^[^:]*: /, "")) + "</p></div>";
    }
    let html = '<div class="card dd-decide" id="dd-decision"><h2>' + (d.player === s.seat ? "Your decision" : "Decide for " + esc(s.table.players[d.player])) +
      "</h2><p>" + esc(d.text) + "</p>";
    if (s.hidden_choices) {
      html += '<p class="dd-hidden"><small>Other choices use ' + esc(s.table.players[d.player]) +
        "'s hidden items: only " + esc(s.table.players[d.player]) + "'s own phone shows them (the host can give this seat to a phone).</small></p>";
    }
    const groups = {};
    s.legal.forEach((a, i) => {
      const head = a.type === "exchange" ? "With " + who(s, a.from) + ":" : "";
      (groups[head] = groups[head] || []).push(i);
    });
    for (const head of Object.keys(groups).sort((a, b) => (a === "" ? 1 : b === "" ? -1 : 0))) {
      if (head) html += "<p><b>" + esc(head) + "</b></p>";
      html += '<div class="dd-buttons">' + groups[head].map((i) => {
        const a = s.legal[i];
        const cls = a.type === "pass" || a.type === "accept" ? "secondary" : "primary";
        return '<button class="' + cls + ' big" data-legal="' + i + '">' + esc(label(s, a)) + "</button>";
      }).join("") + "</div>";
    }
    return html + "</div>";
  }

  // ---- the display and the claims -----------------------------------------------------------------
  function displayCard(s, esc) {
    const st = s.state;
    if (!st.display.length || st.phase === "over") return "";
    const claiming = st.phase === "claim";
    const mine = claiming && s.legal.some((a) => a.type === "claim");
    let html = '<div class="card dd-display" id="dd-display"><h2>On display</h2>';
    if (claiming) {
      const next = s.to_move;
      html += mine ? '<p class="dd-prompt">' + (next === s.seat ? "Your claim: tap an item." : "Claim for " + esc(who(s, next)) + ": tap an item.") + "</p>"
        : next !== null && next >= 0 ? "<p>" + esc(who(s, next)) + " claims now.</p>" : "";
    }
    html += '<div class="dd-display-items">';
    st.display.forEach((t, i) => {
      const by = claiming ? byRank(s, st.claims.map((c, seat) => (c === i ? seat : null)).filter((x) => x !== null)) : [];
      const marks = by.map((seat) => '<span class="dd-claim"><span class="dd-rank">' + rankNo(st.ranks[seat]) + "</span>" + esc(st.players[seat]) + "</span>").join("");
      const inner = itemChip(t, esc) + '<span class="dd-claims">' + marks + "</span>";
      html += mine ? '<button class="dd-slot can" data-claim="' + i + '">' + inner + "</button>" : '<div class="dd-slot">' + inner + "</div>";
    });
    return html + "</div></div>";
  }

  function devilsCard(s, esc) {
    const st = s.state;
    if (!st.ranks.some((r) => r)) return "";
    const seats = byRank(s, st.players.map((_, i) => i));
    let html = '<div class="card dd-devils" id="dd-devils"><h2>Devils' + (st.round ? " · round " + st.round : "") + "</h2>";
    html += seats.map((seat) => {
      const r = st.ranks[seat];
      let note = "";
      if (st.phase === "claim") {
        if (st.claims[seat] !== null) note = "claimed the " + itemName(st.display[st.claims[seat]]);
        else if (s.to_move === seat) note = "claiming now…";
      }
      const next = st.next_ranks[seat] !== r ? " → " + TITLE[st.next_ranks[seat]] : "";
      return '<div class="dd-devil' + (s.to_move === seat ? " now" : "") + '"><span class="dd-rank">' + rankNo(r) + "</span><span><b>" + esc(st.players[seat]) +
        "</b> " + esc(TITLE[r] + next) + " " + gloss(r) + (note ? "<br><small>" + esc(note) + "</small>" : "") + '</span><span class="dd-held">' +
        st.collection_sizes[seat] + " item" + (st.collection_sizes[seat] === 1 ? "" : "s") + "</span></div>";
    }).join("");
    return html + "<p><small>" + st.supply_count + " items left face down.</small></p></div>";
  }

  // ---- fights ---------------------------------------------------------------------------------------
  function oddsQuery(s, fight) {
    const st = s.state;
    const params = ["fighters=" + fight.fighters.map((x) => st.ranks[x]).join(",")];
    const ober = st.ranks.indexOf("oberteufel");
    const feeds = fight.fighters.some((x) => st.ranks[x] === "satansbraten");
    const shown = fight.fighters.filter((x) => st.dice[x]);
    if (feeds && ober >= 0 && !fight.fighters.includes(ober) && st.dice[ober]) shown.push(ober);
    for (const x of shown) params.push(st.ranks[x] + "=" + st.dice[x].join(","));
    return "?" + params.join("&");
  }

  function fetchOdds(s, fight, ui) {
    const key = s.table.id + oddsQuery(s, fight);
    if (odds.key === key || odds.pending === key) return;
    odds.pending = key;
    ui.api("/odds" + oddsQuery(s, fight)).then((o) => {
      if (odds.pending !== key) return;
      odds.pending = null;
      odds.key = key;
      odds.value = o && o.p_win;
      ui.render();
    });
  }

  function fightCard(s, fight, n, esc, current) {
    const st = s.state;
    const ranked = byRank(s, fight.fighters);
    const showOdds = current && fight.step === "reveal" && fight.winner === null && odds.value &&
      odds.key === s.table.id + oddsQuery(s, fight);
    let html = '<div class="card dd-fight' + (current ? " current" : "") + '" id="dd-fight-' + n + '"><h2>Fight ' + (n + 1) + " of " + st.fights.length +
      ": " + itemChip(fight.item, esc) + "</h2>";
    html += ranked.map((seat) => {
      const i = fight.fighters.indexOf(seat);
      const dice = st.dice[seat];
      const total = fight.totals[i];
      const won = fight.winner === seat;
      const chance = showOdds && odds.value[st.ranks[seat]] !== undefined
        ? '<span class="dd-odds">' + (odds.value[st.ranks[seat]] * 100).toFixed(1) + " %</span>" : "";
      return '<div class="dd-fighter' + (won ? " won" : fight.winner !== null ? " lost" : "") + '" data-seat="' + seat + '"><span class="dd-rank">' + rankNo(st.ranks[seat]) + "</span>" +
        "<span><b>" + esc(st.players[seat]) + "</b> " + esc(TITLE[st.ranks[seat]]) +
        (dice ? '<br><span class="dd-dice">' + dice.map((v) => '<span class="dd-die ' + (st.ranks[seat] === "oberteufel" ? "yellow" : st.ranks[seat] === "satansbraten" ? "grey" : "black") + '">' + v + "</span>").join("") + "</span>" : "") +
        "</span>" + chance + (total !== null && total !== undefined ? '<span class="dd-total" title="total">' + total + "</span>" : "") +
        (won ? '<span class="dd-win">wins</span>' : "") + "</div>";
    }).join("");
    const ober = st.ranks.indexOf("oberteufel");
    const satan = fight.fighters.find((x) => st.ranks[x] === "satansbraten");
    if (satan !== undefined && ober >= 0) { // why the Satansbraten's total is more than its two dice
      const own = st.dice[satan];
      const low = st.dice[ober] ? Math.min(...st.dice[ober]) : null;
      const total = fight.totals[fight.fighters.indexOf(satan)];
      html += '<p class="dd-why"><small>' + (own && low !== null && total !== null && total !== undefined
        ? "Satansbraten: " + own.join(" + ") + " + " + low + " (the Oberteufel's lowest die) = " + total
        : "The Satansbraten adds the Oberteufel's lowest die" + (low !== null ? ": " + low : " (not shown yet)")) + ".</small></p>";
    }
    if (showOdds) html += "<p><small>Exact chance to win, before the dice are shown.</small></p>";
    if (fight.winner !== null) html += '<p class="dd-outcome">' + esc(who(s, fight.winner)) + " wins the " + esc(itemName(fight.item)) + ".</p>";
    else if (current) html += "<p><small>Now: " + esc(STEP[fight.step] || fight.step) + (fight.rerolls ? " (re-roll " + fight.rerolls + ")" : "") + ".</small></p>";
    return html + "</div>";
  }

  // ---- the page -------------------------------------------------------------------------------------
  function render(s, el, ui) {
    const st = s.state;
    const esc = ui.esc;
    let html = "";
    if (st.phase === "over") {
      html += '<div class="card"><p>' + esc(st.end_reason || "Game over.") + "</p></div>";
    } else if (st.draw && st.draw.kind === "ranks") html += rankDrawCard(s, esc);
    else if (st.draw && st.draw.kind === "items") html += revealCard(s, esc);
    else if (st.draw && st.draw.kind === "blind_pick") html += blindPickCard(s, esc);
    if (st.decision) html += decisionCard(s, esc);
    const current = st.fight !== null && st.fight !== undefined ? st.fights[st.fight] : null;
    if (current) {
      html += fightCard(s, current, st.fight, esc, true);
      if (current.step === "reveal" && current.winner === null) fetchOdds(s, current, ui);
    }
    if (st.phase === "over") html += youCard(s, esc); // the ranks have moved on from the last round's fights
    else {
      html += displayCard(s, esc) + youCard(s, esc) + devilsCard(s, esc);
      st.fights.forEach((f, n) => { if (n !== st.fight) html += fightCard(s, f, n, esc, false); });
    }
    el.innerHTML = html;
    el.dataset.version = s.version; // which table version this phone shows (tests wait on it)

    wireRankDraw(el, ui);
    wireReveal(el, ui);
    el.querySelectorAll("button[data-pick]").forEach((b) => { b.onclick = () => ui.act({ type: "pick", item: b.dataset.pick }); });
    el.querySelectorAll("button[data-legal]").forEach((b) => { b.onclick = () => ui.act(s.legal[Number(b.dataset.legal)]); });
    el.querySelectorAll("button[data-claim]").forEach((b) => { b.onclick = () => ui.act({ type: "claim", item: Number(b.dataset.claim) }); });
  }

  function summary(s, esc) {
    const sum = s.summary;
    const rows = sum.players.slice().sort((a, b) => b.score - a.score).map((r) =>
      "<tr" + (sum.winners.includes(r.player) ? ' class="dd-winner"' : "") + "><td><b>" + esc(r.player) + "</b><br><small>" + esc(r.rank ? TITLE[r.rank] : "") +
      "</small></td><td>" + r.items + "</td><td>" + r.values + "</td><td>" + r.triples + (r.triples ? " (+" + 3 * r.triples + ")" : "") +
      "</td><td><b>" + r.score + "</b></td></tr>").join("");
    const tie = sum.tie_break === "springteufel" ? " (the Springteufel wins ties)" : sum.tie_break ? " (tie: the highest rank wins)" : "";
    return "<h2>Final count</h2><p class=\"dd-outcome\">" + esc(sum.winners.join(" and ")) + (sum.winners.length > 1 ? " win" : " wins") + esc(tie) + "</p>" +
      '<table class="scores dd-scores"><tr><th>Player</th><th>Items</th><th>Value</th><th>Triples</th><th>Score</th></tr>' + rows + "</table>" +
      "<p><small>Score: item values plus 3 for each set of 3 identical items.</small></p>";
  }

  function swatch(s, seat) {
    const r = s.state.ranks[seat];
    return r ? '<span class="dd-rank" title="' + TITLE[r] + '">' + rankNo(r) + "</span>" : "";
  }

  Companion.games["dice-devils"] = { render, summary, swatch };
})();
