// DOG on the phone: the board (16 track fields a player, one quarter each in a circle, 2 to 6 players; kennels, starts, finish holes, the marbles
// in their colours, a fresh marble blocking its start), whose turn it is and who the partner is (their
// hand stays hidden: the companion sends each phone its own cards only), the cards dealt typed on each
// seat's phone, the partners' exchange of one card face down, and the turn: tap the card being laid, then
// a highlighted marble, then a highlighted target (a 7 part by part). What to do on the physical board is
// the page's top bar (#todo), from the engine's events.
(function () {
  const COLOURS = ["red", "blue", "green", "yellow", "white", "black"];
  const INK = { red: "#e5484d", blue: "#3e63dd", green: "#30a46c", yellow: "#f5d90a", white: "#f2f2f2", black: "#2b2b2b" };
  // a marble's outline: dark on light colours, light on the black marble (the board is dark)
  const RIM = { black: "#d8d8d8" };
  const RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "Joker"];
  const QUARTER = 16;
  // The table's size (16 track fields a player; finish codes follow the track): set from each state drawn.
  let SEATS = 4, TRACK = 64, FINISH = 64;
  // the board's drawing, in SVG units: the ring of track fields, finish holes inward, kennels outside;
  // holes and marbles shrink so that 96 fields (six players) fit the same ring
  const R = 166, GAP = 17, KENNEL_R = R + 21;
  let HOLE = 5.6, MARBLE = 7.2, HALO = 9.5;
  // a kennel's four holes lie just before its start, spaced in angle as on the four-player board
  const KENNEL_STEP = (2 * Math.PI) / 64;

  function sizeFor(st) {
    SEATS = st.players.length;
    TRACK = FINISH = QUARTER * SEATS;
    const spacing = (2 * Math.PI * R) / TRACK; // SVG units between two track fields
    HOLE = Math.min(5.6, spacing * 0.42);
    MARBLE = Math.min(7.2, spacing * 0.5);
    HALO = Math.min(9.5, spacing * 0.62);
  }

  let pick = { card: null, from: null, to: null }; // the play being built by taps on this phone
  // The dealt cards typed on this phone and the card chosen for the partner. Either may be pressed before
  // this seat's turn to enter it (`queued`): the phone sends it as soon as the companion takes it, so the
  // four players type their cards and choose their gifts at once.
  let draft = { key: null, cards: [], queued: false, sending: false };
  let gift = { key: null, card: null, queued: false, sending: false };

  const esc = (s) => Companion.esc(s);
  // `seat`'s team in play order from `seat` (state.teams; one seat each in individual play)
  function teamOf(st, seat) {
    const team = (st.teams || []).find((t) => t.includes(seat)) || [seat];
    return team.slice().sort((a, b) => ((a - seat + SEATS) % SEATS) - ((b - seat + SEATS) % SEATS));
  }
  const individual = (st) => teamOf(st, 0).length === 1;
  // who gets `seat`'s exchange card: the next team-mate, or in individual play the seat to the left,
  // which takes it from its right-hand neighbour (2.6)
  const receiverOf = (st, seat) => (individual(st) ? (seat - 1 + SEATS) % SEATS : teamOf(st, seat)[1]);
  const startOf = (colour) => QUARTER * colour;
  const named = (card) => (card === "A" || card === "8" ? "an " : "a ") + card;

  // A hole as players find it (the engine's words): "red start", "blue 5", "green F2", "red kennel".
  function holeName(key) {
    if (typeof key === "string") return COLOURS[Number(key.slice(1))] + " kennel";
    if (key >= FINISH) return COLOURS[Math.floor((key - FINISH) / 4)] + " F" + (((key - FINISH) % 4) + 1);
    const quarter = Math.floor(key / QUARTER), offset = key % QUARTER;
    return COLOURS[quarter] + (offset === 0 ? " start" : " " + offset);
  }

  // Every marble on the board: {colour, key (a hole code, or "k<colour>" in its kennel), slot, fresh}.
  function marbles(st) {
    const out = [];
    st.marbles.forEach((codes, colour) => {
      let slot = 0;
      codes.forEach((code) => {
        if (code < 0) out.push({ colour, key: "k" + colour, slot: slot++, fresh: false });
        else out.push({ colour, key: code, slot: 0, fresh: st.fresh[colour] && code === startOf(colour) });
      });
    });
    return out;
  }

  const allHome = (st, colour) => st.marbles[colour].every((code) => code >= FINISH);
  // the colour a seat moves: its own, or once its own four are home the next team-mate's still out
  function controlled(st, seat) {
    if (!allHome(st, seat)) return seat;
    const mates = teamOf(st, seat).slice(1);
    if (!mates.length) return seat;
    return mates.find((m) => !allHome(st, m)) ?? mates[0];
  }

  function marbleAt(st, key) {
    return marbles(st).find((m) => m.key === key) || null;
  }

  function marbleName(st, key) {
    const m = marbleAt(st, key);
    if (typeof key === "string") return "a " + COLOURS[Number(key.slice(1))] + " marble from its kennel";
    return m ? COLOURS[m.colour] + " at " + holeName(key) : holeName(key);
  }

  // ---- where holes are drawn ---------------------------------------------------------------------
  // The viewer's start is at the bottom; play runs anticlockwise, as on the table.
  function angle(field, turn) { return Math.PI / 2 - ((field - turn) * 2 * Math.PI) / TRACK; }
  function at(radius, a) { return [radius * Math.cos(a), radius * Math.sin(a)]; }

  function place(key, slot, turn) {
    if (typeof key === "string") { // a kennel: four holes outside the ring, just before the start
      const colour = Number(key.slice(1));
      return at(KENNEL_R, angle(startOf(colour), turn) + KENNEL_STEP * (2.2 + slot * 1.15));
    }
    if (key >= FINISH) { // F1..F4 inward from the start
      const colour = Math.floor((key - FINISH) / 4);
      return at(R - GAP * (((key - FINISH) % 4) + 1), angle(startOf(colour), turn));
    }
    return at(R, angle(key, turn));
  }

  const f1 = (n) => n.toFixed(1);

  // ---- the plays open now, as taps: a marble (or a kennel) then a target --------------------------
  // Each step: {card, from, to, action} where action is what is sent (a 7's first part alone, so that a
  // 7 is built part by part).
  function steps(s) {
    const st = s.state;
    const out = [];
    const seen = new Set();
    for (const a of s.legal) {
      let step = null;
      if (a.type === "start") {
        const colour = controlled(st, s.to_move);
        step = { card: a.card, from: "k" + colour, to: startOf(colour), action: a };
      } else if (a.type === "move") step = { card: a.card, from: a.marble, to: a.to, action: a };
      else if (a.type === "swap") step = { card: a.card, from: a.marble, to: a.with, action: a };
      else if (a.type === "seven") {
        const first = a.parts[0];
        step = { card: a.card, from: first.marble, to: first.to, action: { type: "seven", card: a.card, parts: [first] }, seven: true };
      } else if (a.type === "part") step = { card: st.seven.card, from: a.marble, to: a.to, action: a, seven: true };
      if (!step) continue;
      // a 7's part may stop on any hole of its way: the same marble moves on with the rest
      const stops = step.seven ? way(step.from, step.to).map((hole) => sevenStep(a, step, hole)) : [step];
      for (const one of stops) {
        const id = JSON.stringify(one.action);
        if (seen.has(id)) continue;
        seen.add(id);
        out.push(one);
      }
    }
    return out;
  }

  // The holes a marble steps on going forward from `from` to `to` (a finish hole: through its start).
  function way(from, to) {
    const out = [];
    const colour = to >= FINISH ? Math.floor((to - FINISH) / 4) : null;
    let hole = from;
    while (hole !== to && out.length < 7) {
      if (hole >= FINISH) hole += 1;
      else if (colour !== null && hole === startOf(colour)) hole = FINISH + 4 * colour;
      else hole = (hole + 1) % TRACK;
      out.push(hole);
    }
    return out;
  }

  function sevenStep(a, step, hole) {
    if (hole === step.to) return step;
    const part = { marble: step.from, to: hole };
    const action = a.type === "part" ? { type: "part", ...part } : { type: "seven", card: a.card, parts: [part] };
    return { card: step.card, from: step.from, to: hole, action, seven: true };
  }

  // How far a 7's part goes: from a track field or finish hole to a track field or finish hole.
  function distance(from, to) {
    if (typeof from === "string") return 0;
    if (from >= FINISH) return to - from;
    if (to < FINISH) return (to - from + TRACK) % TRACK;
    const colour = Math.floor((to - FINISH) / 4);
    return ((startOf(colour) - from + TRACK) % TRACK) + 1 + ((to - FINISH) % 4);
  }

  function targetWords(st, step) {
    if (step.action.type === "swap") return "swap with " + marbleName(st, step.to);
    const there = marbleAt(st, step.to);
    let words = "to " + holeName(step.to);
    if (step.seven) {
      const left = (st.seven ? st.seven.left : 7) - distance(step.from, step.to);
      words += " (" + distance(step.from, step.to) + (left ? ", then " + left + " more" : "") + ")";
    }
    if (there && step.action.type !== "swap") words += ", sending " + COLOURS[there.colour] + " home";
    return words;
  }

  // ---- drawing ---------------------------------------------------------------------------------------
  function boardSvg(s, can, targets, chosen) {
    const st = s.state;
    const turn = startOf(s.seat === null ? 0 : s.seat);
    let holes = "";
    for (let field = 0; field < TRACK; field++) {
      const [x, y] = place(field, 0, turn);
      const start = field % QUARTER === 0;
      const ink = start ? INK[COLOURS[field / QUARTER]] : "#5a6070";
      holes += '<circle class="dog-hole' + (start ? " start" : "") + '" cx="' + f1(x) + '" cy="' + f1(y) + '" r="' + (start ? HOLE + 1.8 : HOLE) +
        '" fill="#111318" stroke="' + ink + '" stroke-width="' + (start ? 3 : 1.4) + '"/>';
    }
    for (let colour = 0; colour < SEATS; colour++) {
      for (let hole = 0; hole < 4; hole++) {
        const [x, y] = place(FINISH + 4 * colour + hole, 0, turn);
        holes += '<circle class="dog-hole finish" cx="' + f1(x) + '" cy="' + f1(y) + '" r="' + HOLE + '" fill="#111318" stroke="' + INK[COLOURS[colour]] + '" stroke-width="1.6"/>';
        const [kx, ky] = place("k" + colour, hole, turn);
        holes += '<circle class="dog-hole kennel" cx="' + f1(kx) + '" cy="' + f1(ky) + '" r="' + HOLE + '" fill="' + INK[COLOURS[colour]] + '33" stroke="' + INK[COLOURS[colour]] + '" stroke-width="1"/>';
      }
    }
    let pieces = "";
    let kennelled = new Set();
    for (const m of marbles(st)) {
      const [x, y] = place(m.key, m.slot, turn);
      const key = String(m.key);
      const first = typeof m.key === "string" && !kennelled.has(key);
      if (typeof m.key === "string") kennelled.add(key);
      const live = can.has(key) && (typeof m.key !== "string" || first);
      const cls = ["dog-marble", COLOURS[m.colour]];
      if (m.fresh) cls.push("fresh");
      if (live) cls.push("can");
      if (chosen === key && (typeof m.key !== "string" || first)) cls.push("chosen");
      if (targets.has(key)) cls.push("target");
      const label = COLOURS[m.colour] + " marble " + (typeof m.key === "string" ? "in its kennel" : "at " + holeName(m.key)) +
        (m.fresh ? ", fresh on its start: it blocks everyone" : "");
      if (m.fresh) { // a bar across the track: nobody passes or lands here
        const a = angle(m.key, turn);
        const [ax, ay] = at(R - 18, a), [bx, by] = at(R + 18, a);
        pieces += '<line class="dog-block" x1="' + f1(ax) + '" y1="' + f1(ay) + '" x2="' + f1(bx) + '" y2="' + f1(by) + '" stroke="#fff" stroke-width="5" stroke-linecap="round"/>';
      }
      const tap = live || targets.has(key);
      pieces += '<g class="' + cls.join(" ") + '" data-key="' + key + '"' + (tap ? ' role="button" tabindex="0"' : "") + ' aria-label="' + esc(label) + '">' +
        (tap ? '<circle class="halo" cx="' + f1(x) + '" cy="' + f1(y) + '" r="' + f1(HALO) + '"/>' : "") +
        '<circle cx="' + f1(x) + '" cy="' + f1(y) + '" r="' + MARBLE + '" fill="' + INK[COLOURS[m.colour]] + '" stroke="' + (m.fresh ? "#fff" : RIM[COLOURS[m.colour]] || "#000a") +
        '" stroke-width="' + (m.fresh ? 3 : 1.2) + '"/></g>';
    }
    // empty targets: a ring to tap
    for (const key of targets) {
      if (marbles(st).some((m) => String(m.key) === key)) continue;
      const [x, y] = place(Number(key), 0, turn);
      pieces += '<g class="dog-target" data-key="' + key + '" role="button" tabindex="0" aria-label="' + esc("to " + holeName(Number(key))) + '">' +
        '<circle class="halo" cx="' + f1(x) + '" cy="' + f1(y) + '" r="' + f1(HALO) + '"/><circle cx="' + f1(x) + '" cy="' + f1(y) + '" r="' + HOLE + '" fill="none" stroke="#4da3ff" stroke-width="2.5"/></g>';
    }
    const who = s.to_move >= 0 && s.to_move !== null ? st.players[s.to_move] : "";
    const middle = '<text x="0" y="-6" class="dog-mid">Round ' + st.round + "</text>" +
      (who ? '<text x="0" y="16" class="dog-mid who" fill="' + INK[COLOURS[s.to_move]] + '">' + esc(who) + "</text>" : "");
    return '<svg class="dog-board" data-seats="' + SEATS + '" viewBox="-200 -200 400 400" role="img" aria-label="The DOG board">' + holes + pieces + middle + "</svg>";
  }

  function cardButton(card, attrs, extra) {
    return '<button class="dog-card' + (card === "Joker" ? " joker" : "") + (extra || "") + '" ' + attrs + ">" + esc(card === "Joker" ? "Jok" : card) + "</button>";
  }

  function cardFace(card) {
    return '<span class="dog-card' + (card === "Joker" ? " joker" : "") + '">' + esc(card === "Joker" ? "Jok" : card) + "</span>";
  }

  // ---- the panels ------------------------------------------------------------------------------------
  function tablePanel(s) {
    const st = s.state;
    const me = s.seat;
    let html = '<div class="dog-seats">';
    st.players.forEach((name, seat) => {
      const role = seat === me ? "you" : me !== null && teamOf(st, me).includes(seat) ? "partner" : me !== null ? "opponent" : "";
      html += '<p class="dog-player' + (seat === s.to_move ? " now" : "") + '" data-seat="' + seat + '"><span class="swatch" style="background:' + INK[COLOURS[seat]] + '"></span>' +
        "<b>" + esc(name) + "</b> " + (role ? "<small>" + role + "</small> " : "") + '<span class="dog-left">' + st.cards_left[seat] + " card" + (st.cards_left[seat] === 1 ? "" : "s") + "</span></p>";
    });
    html += "</div>";
    if (me !== null) {
      const mates = teamOf(st, me).slice(1);
      html += '<p class="dog-team">You play <b>' + COLOURS[me] + "</b>" + (mates.length ? " with " + mates.map((m) => "<b>" + esc(st.players[m]) + "</b> (" +
        COLOURS[m] + ")").join(" and ") + ". Your partner" + (mates.length > 1 ? "s'" : "'s") + " cards are hidden.</p>" : ", each for yourself. The others' cards are hidden.</p>");
    }
    return html;
  }

  function handPanel(s) {
    const st = s.state;
    const me = s.seat;
    if (me === null) return "";
    const hand = st.hands[me];
    if (st.options.hands === "laid") return "";
    if (st.phase === "deal" && hand === null) return dealPanel(s);
    if (!hand) return "";
    if (st.phase === "exchange") return exchangePanel(s);
    if (st.phase === "take" && st.taking && st.taking.from === me) return takePanel(s);
    return '<div class="card"><h2>Your hand</h2><div class="dog-hand">' + (hand.length ? hand.map(cardFace).join("") :
      "<small>No cards: wait for the next deal.</small>") + "</div></div>";
  }

  function dealPanel(s) {
    const st = s.state;
    const key = s.table.id + ":" + st.round;
    if (draft.key !== key) draft = { key, cards: [], queued: false, sending: false };
    const size = st.hand_size;
    const full = draft.cards.length === size;
    const now = s.phone.may_roll;
    const before = firstWaiting(s);
    let html = '<div class="card dog-deal"><h2>The ' + size + " cards dealt to you</h2>" +
      "<p><small>Tap each card you were dealt; tap a chosen card to take it back. Only your phone sees them.</small></p>" +
      '<div class="dog-picker">' + RANKS.map((c) => cardButton(c, 'data-add="' + c + '" aria-label="add ' + c + '"' + (full ? " disabled" : ""))).join("") + "</div>" +
      '<div class="dog-hand dog-draft">' + (draft.cards.length ? draft.cards.map((c, i) => cardButton(c, 'data-drop="' + i + '" aria-label="take back ' + c + '"', " shown")).join("") :
        "<small>none yet</small>") + "</div>";
    if (draft.queued) {
      return html + '<p class="dog-queued">Your cards go in as soon as ' + esc(before) + " has entered theirs.</p>" +
        '<button class="secondary" id="dog-unqueue">Wait, let me change them</button></div>';
    }
    html += '<button class="primary big" id="dog-deal"' + (full ? "" : " disabled") + ">" +
      (full ? (now ? "These are my " + size + " cards" : "Enter them when " + esc(before) + " is done") : "Tap " + (size - draft.cards.length) + " more") + "</button></div>";
    return html;
  }

  // The player whose cards are entered now (the prompt names the waiting players in order).
  function firstWaiting(s) {
    const said = s.state.prompt || "";
    const marker = "waiting for the cards dealt to ";
    const rest = said.includes(marker) ? said.slice(said.indexOf(marker) + marker.length) : "";
    const names = s.state.players.filter((n) => rest.startsWith(n)).sort((a, b) => b.length - a.length);
    return names.length ? names[0] : "the player before you";
  }

  // Send a choice pressed early, once this seat may make it.
  async function sendQueued(s, ui) {
    const st = s.state;
    const me = s.seat;
    if (me === null) return;
    if (draft.queued && !draft.sending && st.phase === "deal" && st.hands[me] === null && s.phone.may_roll) {
      draft.sending = true;
      const ok = await ui.act({ type: "deal", seat: me, cards: draft.cards.slice() });
      draft.sending = false;
      draft.queued = false;
      if (ok) draft.cards = [];
    }
    if (gift.queued && !gift.sending && st.phase === "exchange" && !st.given[me] && s.legal.some((a) => a.type === "give" && a.seat === me)) {
      gift.sending = true;
      await ui.act({ type: "give", seat: me, card: gift.card });
      gift.sending = false;
      gift.queued = false;
    }
  }

  function exchangePanel(s) {
    const st = s.state;
    const me = s.seat;
    const mate = st.players[receiverOf(st, me)];
    const key = s.table.id + ":" + st.round;
    if (gift.key !== key) gift = { key, card: null, queued: false, sending: false };
    const mine = s.legal.filter((a) => a.type === "give" && a.seat === me);
    const giving = s.to_move !== null && s.to_move >= 0 ? st.players[s.to_move] : "the player before you";
    let html = '<div class="card dog-give"><h2>' + (individual(st) ? esc(mate) + " takes one card from you: tap the card taken" :
      "Give " + esc(mate) + " one card face down") + "</h2>";
    if (st.given[me]) {
      return html + '<div class="dog-hand">' + st.hands[me].map(cardFace).join("") + "</div><p>You gave " + esc(mate) + " " +
        named(st.given[me]) + ". You take " + esc(mate) + "'s card when everyone has given.</p></div>";
    }
    if (gift.queued) {
      return html + '<div class="dog-hand">' + st.hands[me].map(cardFace).join("") + '</div><p class="dog-queued">Your ' + esc(gift.card) + " goes to " + esc(mate) +
        " face down as soon as " + esc(giving) + ' has given.</p><button class="secondary" id="dog-unqueue">Wait, not that card</button></div>';
    }
    html += '<div class="dog-hand">' + st.hands[me].map((c, i) => cardButton(c, 'data-gift="' + i + '" aria-label="give ' + c + '"', gift.card === c ? " chosen" : "")).join("") + "</div>";
    html += '<button class="primary big" id="dog-give"' + (gift.card ? "" : " disabled") + ">" +
      (gift.card ? "Give " + esc(mate) + " the " + esc(gift.card) + " face down" + (mine.length ? "" : " when " + esc(giving) + " has given") : "Tap the card to give") + "</button>";
    return html + "</div>";
  }

  // A 2 laid by another player takes one of this seat's cards (individual play, 2.6): its own hand only.
  function takePanel(s) {
    const st = s.state;
    const by = st.players[st.taking.by];
    const offered = s.legal.filter((a) => a.type === "hand_over" && a.seat === s.seat);
    return '<div class="card dog-hand-over"><h2>' + esc(by) + " takes one of your cards</h2><p><small>Tap the card " + esc(by) +
      " drew from your hand; only your phone sees your cards.</small></p><div class=\"dog-hand\">" +
      offered.map((a) => cardButton(a.card, 'data-hand-over="' + esc(a.card) + '" aria-label="hand over ' + esc(a.card) + '"', " shown")).join("") + "</div></div>";
  }

  // The turn: the card being laid, the marbles it can move, their targets, folding.
  function turnPanel(s, all) {
    const st = s.state;
    if (st.phase !== "play" || s.to_move !== s.seat || s.seat === null || !s.legal.length) return "";
    const laid = st.options.hands === "laid";
    const pending = st.seven;
    let html = '<div class="card dog-turn" id="dog-turn">';
    if (pending) {
      html += "<h2>Your " + esc(pending.card) + ": " + pending.left + " more step" + (pending.left === 1 ? "" : "s") + " to move</h2>";
    } else {
      const cards = laid ? RANKS : st.hands[s.seat];
      const playable = new Set(all.map((x) => x.card).concat(s.legal.filter((a) => a.type === "take").map((a) => a.card)));
      html += "<h2>" + (laid ? "Which card do you lay?" : "Tap the card you lay") + "</h2><div class=\"dog-hand" + (laid ? " dog-picker" : "") + '">' +
        [...new Set(cards)].map((c) => cardButton(c, 'data-card="' + c + '" aria-label="lay ' + c + '"' + (playable.has(c) ? "" : " disabled"),
          " shown" + (pick.card === c ? " chosen" : ""))).join("") + "</div>";
      if (!laid && playable.size < new Set(cards).size) html += "<p><small>Greyed cards have no move now.</small></p>";
    }
    const mine = all.filter((x) => x.card === pick.card);
    const takes = s.legal.filter((a) => a.type === "take" && a.card === pick.card);
    if (pick.card !== null && pick.from === null && takes.length) {
      html += '<p class="dog-ask">Or take a card from an opponent with it:</p><div class="dog-choices">' + takes.map((a, i) => '<button class="primary" data-take="' + i +
        '">' + esc("take a card from " + st.players[a.from] + " (" + st.cards_left[a.from] + " in hand)") + "</button>").join("") + "</div>";
    }
    if (pick.card !== null && mine.length) {
      const froms = [...new Map(mine.map((x) => [String(x.from), x.from])).values()];
      html += '<p class="dog-ask">' + (pick.from === null ? "Which marble? Tap it on the board or here:" : "Where to? Tap a ringed hole or here:") + "</p>";
      if (pick.from === null) {
        html += '<div class="dog-choices">' + froms.map((f) => '<button class="primary" data-from="' + esc(String(f)) + '">' + esc(marbleName(st, f)) + "</button>").join("") + "</div>";
      } else {
        const here = mine.filter((x) => String(x.from) === pick.from);
        const tos = here.filter((x, i) => here.findIndex((y) => y.to === x.to) === i)
          .sort((x, y) => distance(x.from, x.to) - distance(y.from, y.to)); // nearest first
        if (pick.to === null) {
          html += '<div class="dog-choices">' + tos.map((x) => '<button class="primary" data-to="' + x.to + '">' + esc(targetWords(st, x)) + "</button>").join("") +
            '<button class="secondary" id="dog-other">Another marble</button></div>';
        } else { // one target, several plays (a Joker as a 4 or as a 7's first part): say which
          html += '<div class="dog-choices">' + here.filter((x) => x.to === pick.to).map((x, i) => '<button class="primary" data-way="' + i + '">' +
            esc(x.seven ? "as a 7: " + targetWords(st, x) : "as one card's move: " + targetWords(st, x)) + "</button>").join("") + "</div>";
        }
      }
    }
    const fold = s.legal.some((a) => a.type === "fold");
    const blank = s.legal.find((a) => a.type === "no_effect");
    if (blank) html += '<p><button class="secondary" id="dog-no-effect">Lay the J without effect</button></p>';
    if (fold) {
      html += '<p><button class="danger" id="dog-fold">' + (laid ? "I cannot play: fold" : "Fold: no card can be played") + "</button></p>";
    }
    return html + "</div>";
  }

  // ---- the page --------------------------------------------------------------------------------------
  function render(s, el, ui) {
    const st = s.state;
    sizeFor(st);
    const all = steps(s);
    if (st.seven) pick.card = st.seven.card;
    const takers = s.legal.filter((a) => a.type === "take").map((a) => a.card);
    if (pick.card !== null && !all.some((x) => x.card === pick.card) && !takers.includes(pick.card)) pick = { card: null, from: null, to: null };
    if (pick.from !== null && !all.some((x) => x.card === pick.card && String(x.from) === pick.from)) pick.from = null, pick.to = null;
    const mine = all.filter((x) => x.card === pick.card);
    const can = new Set(pick.from === null ? mine.map((x) => String(x.from)) : []);
    const targets = new Set(pick.from !== null ? mine.filter((x) => String(x.from) === pick.from).map((x) => String(x.to)) : []);

    // the board, then what this phone does now (close under the board), then the players
    let html = '<div class="card dog-table">' + boardSvg(s, can, targets, pick.from) +
      '<p class="dog-legend"><small>Your start is at the bottom; play runs anticlockwise. A white bar: a fresh marble blocks its start.</small></p></div>';
    const turn = turnPanel(s, all);
    html += (turn || handPanel(s)) + '<div class="card">' + tablePanel(s) + "</div>";
    el.innerHTML = html;

    const redraw = () => ui.render();
    el.querySelectorAll("button[data-add]").forEach((b) => {
      b.onclick = () => { if (draft.cards.length < st.hand_size) draft.cards.push(b.dataset.add); draft.queued = false; redraw(); };
    });
    el.querySelectorAll("button[data-drop]").forEach((b) => {
      b.onclick = () => { draft.cards.splice(Number(b.dataset.drop), 1); draft.queued = false; redraw(); };
    });
    const deal = el.querySelector("#dog-deal");
    if (deal) {
      deal.onclick = async () => {
        if (!s.phone.may_roll) { draft.queued = true; redraw(); return; }
        if (await ui.act({ type: "deal", seat: s.seat, cards: draft.cards.slice() })) draft.cards = [];
      };
    }
    const unqueue = el.querySelector("#dog-unqueue");
    if (unqueue) unqueue.onclick = () => { draft.queued = false; gift.queued = false; redraw(); };
    el.querySelectorAll("button[data-gift]").forEach((b) => {
      b.onclick = () => { gift.card = st.hands[s.seat][Number(b.dataset.gift)]; redraw(); };
    });
    const give = el.querySelector("#dog-give");
    if (give) {
      give.onclick = () => {
        if (s.legal.some((a) => a.type === "give" && a.seat === s.seat)) ui.act({ type: "give", seat: s.seat, card: gift.card });
        else { gift.queued = true; redraw(); }
      };
    }

    el.querySelectorAll("button[data-hand-over]").forEach((b) => {
      b.onclick = () => ui.act({ type: "hand_over", seat: s.seat, card: b.dataset.handOver });
    });
    el.querySelectorAll("button[data-take]").forEach((b) => {
      b.onclick = async () => {
        const take = s.legal.filter((a) => a.type === "take" && a.card === pick.card)[Number(b.dataset.take)];
        if (await ui.act(take)) pick = { card: null, from: null, to: null };
      };
    });
    el.querySelectorAll("button[data-card]").forEach((b) => {
      b.onclick = () => { pick = { card: b.dataset.card, from: null, to: null }; redraw(); };
    });
    const play = async (step) => { if (await ui.act(step.action)) pick = { card: null, from: null, to: null }; };
    const chooseTo = (to) => {
      const ways = mine.filter((x) => String(x.from) === pick.from && x.to === to);
      if (ways.length === 1) play(ways[0]);
      else if (ways.length > 1) { pick.to = to; redraw(); }
    };
    el.querySelectorAll("button[data-from]").forEach((b) => {
      b.onclick = () => { pick.from = b.dataset.from; pick.to = null; redraw(); };
    });
    el.querySelectorAll("button[data-to]").forEach((b) => { b.onclick = () => chooseTo(Number(b.dataset.to)); });
    el.querySelectorAll("button[data-way]").forEach((b) => {
      b.onclick = () => play(mine.filter((x) => String(x.from) === pick.from && x.to === pick.to)[Number(b.dataset.way)]);
    });
    const other = el.querySelector("#dog-other");
    if (other) other.onclick = () => { pick.from = null; pick.to = null; redraw(); };
    const fold = el.querySelector("#dog-fold");
    if (fold) fold.onclick = () => ui.act({ type: "fold" });
    const blank = el.querySelector("#dog-no-effect");
    if (blank) blank.onclick = () => ui.act({ type: "no_effect", card: "J" });
    // taps on the board: a highlighted marble, then a ringed target
    el.querySelectorAll(".dog-board [role=button]").forEach((g) => {
      g.onclick = () => {
        const key = g.dataset.key;
        if (targets.has(key)) chooseTo(Number(key));
        else if (can.has(key)) { pick.from = key; pick.to = null; redraw(); }
      };
    });
    sendQueued(s, ui);
  }

  // The status line: who enters cards, who gives, a 7 under way; else the usual "Your turn".
  function status(s) {
    const st = s.state;
    if (s.over || s.ended) return null;
    sizeFor(st);
    const me = s.seat;
    if (st.phase === "deal") {
      if (me !== null && st.hands[me] === null && s.phone.may_roll) return { text: st.players[me] + ": enter the " + st.hand_size + " cards dealt to you", mine: true };
      return { text: st.prompt };
    }
    if (st.phase === "exchange") {
      if (me !== null && s.to_move === me) {
        const mate = st.players[receiverOf(st, me)];
        return { text: st.players[me] + (individual(st) ? ": " + mate + " takes one of your cards" : ": give " + mate + " one card face down"), mine: true };
      }
      return { text: st.prompt };
    }
    if (st.phase === "take" && st.taking) {
      if (me === st.taking.from) return { text: st.players[me] + ": " + st.players[st.taking.by] + " takes one of your cards", mine: true };
      return { text: st.prompt };
    }
    if (st.seven && s.to_move !== null) {
      const mineNow = s.to_move === me;
      return { text: (mineNow ? "Your 7, " : st.players[s.to_move] + "'s 7: ") + st.seven.left + " more step" + (st.seven.left === 1 ? "" : "s"), mine: mineNow };
    }
    return null;
  }

  function summary(s, esc) {
    const sum = s.summary;
    const marbles = { 1: "four", 2: "eight", 3: "twelve" }[sum.winners.length] || "their";
    return "<h2>Result</h2><p><b>" + (sum.team ? esc(sum.team) + (sum.winners.length === 1 ? " wins" : " win") + ": all " + marbles + " marbles home." : "Game over.") + "</b></p>" +
      "<p>" + Object.entries(sum.home).map(([colour, n]) => '<span class="swatch" style="background:' + INK[colour] + '"></span>' + colour + " " + n + "/4").join(" · ") + "</p>";
  }

  Companion.games.dog = {
    render, status, summary,
    swatch: (s, seat) => '<span class="swatch" style="background:' + INK[COLOURS[seat]] + '"></span>',
  };
})();
