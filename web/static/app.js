// The table page: seats, whose turn, the roll and its reading, the game board, the history.
// Live: one EventSource per phone; each event carries this phone's whole snapshot.
// The phone is known by an HttpOnly cookie the companion sets (this script never sees it); the join
// code arrives in the address's fragment (#code=KXQM, from the QR code) and is kept for this tab only.
/* exported Companion */
const Companion = (function () {
  const tableId = document.body.dataset.table;
  const gameName = document.body.dataset.game;
  const codeKey = "join-code:" + tableId;
  let snap = null;
  let confirming = null; // a host or undo command waiting for "Yes" on this phone
  let source = null;
  let manual = null; // the dice typed by hand: {mode: "roll"|"correct", values: []}
  // the camera's calibration (host): the step due, what it learned (from /api/status), the card opened
  const calibration = { step: "empty", learned: null, names: null, calibrated: false, photo: null, refused: null, open: false, values: "",
    rotation: null, view: 0 };  // rotation: the camera's picture's turn (null: not turnable here); view: its picture's version
  const games = {};

  const $ = (id) => document.getElementById(id);
  const esc = (s) => String(s).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]));

  function toast(text, error) {
    const el = $("toast");
    el.textContent = text;
    el.className = "show" + (error ? " error" : "");
    clearTimeout(toast.timer);
    toast.timer = setTimeout(() => { el.className = ""; }, error ? 5000 : 3000);
  }

  async function api(path, body) {
    const headers = { "Content-Type": "application/json" };
    const res = await fetch("/api/tables/" + tableId + path, {
      method: body === undefined ? "GET" : "POST", headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    let data = {};
    try { data = await res.json(); } catch (e) { data = { error: "no answer from the companion" }; }
    if (!res.ok) { toast(data.error || res.statusText, true); return null; }
    return data;
  }

  // Commands carry the version this phone saw; a stale one is refused and the fresh state arrives live.
  const command = (path, extra) => api(path, Object.assign({ version: snap.version }, extra || {}));
  const act = (action) => command("/actions", { action });

  // The health line: camera, buttons, the live connection, and when the table last changed.
  function showLink(live) {
    const el = $("health-link");
    el.textContent = live ? "Live" : "Reconnecting…";
    el.className = live ? "ok" : "bad";
  }

  function heard() {
    const now = new Date();
    $("health-time").textContent = "updated " + now.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit", second: "2-digit", hourCycle: "h23" });
    showLink(true);
  }

  async function checkHealth() {
    let status = null;
    try {
      const res = await fetch("/api/status", { cache: "no-store" });
      if (res.ok) status = await res.json();
    } catch (e) { status = null; }
    if (!status) { showLink(false); return; }
    const camera = $("health-camera");
    if (status.camera_error) { camera.textContent = "Camera: lost"; camera.className = "bad"; }
    else if (status.camera === "sim") { camera.textContent = "Camera: simulated"; camera.className = ""; }
    else if (status.camera) { camera.textContent = "Camera: seen"; camera.className = "ok"; }
    else { camera.textContent = "Camera: none"; camera.className = "bad"; }
    $("health-buttons").textContent = status.buttons === "gpio" ? "Buttons: wired" : "Buttons: on screen";
    const calib = status.calibration;
    if (calib && snap && (calib.step !== calibration.step || calib.learned !== calibration.learned ||
        String(calib.names) !== String(calibration.names) || photoId(calib) !== photoId(calibration) ||
        photoId(calib, "refused") !== photoId(calibration, "refused") || calib.rotation !== calibration.rotation)) {
      Object.assign(calibration, calib);
      renderHost();
    }
  }

  function connect() {
    if (source) source.close();
    source = new EventSource("/api/tables/" + tableId + "/events");
    source.addEventListener("snapshot", (e) => { heard(); render(JSON.parse(e.data)); });
    source.addEventListener("update", (e) => {
      heard();
      const data = JSON.parse(e.data);
      render(data.snapshot);
      if (data.texts && data.texts.length) {
        // a watcher has no CONFIRM: tell it who has
        const words = data.texts.join(" · ");
        toast(snap.seat === null ? words.replace(/press CONFIRM/g, "a seated player presses CONFIRM") : words);
      }
    });
    source.onopen = () => showLink(true);
    source.onerror = () => {
      showLink(false);
      checkHealth();
      // the browser does not retry a refused stream (503: the companion or this phone has too many open)
      if (source.readyState === EventSource.CLOSED) setTimeout(connect, 5000);
    };
  }

  function joinCode() {
    const match = /code=([A-Za-z]{4})/.exec(location.hash);
    if (match) {
      sessionStorage.setItem(codeKey, match[1].toUpperCase());
      history.replaceState(null, "", location.pathname);
    }
    return (snap && snap.table.code) || sessionStorage.getItem(codeKey);
  }

  // Taking a seat: at once when it is free and this phone holds none; else the host (or CONFIRM) decides.
  async function takeSeat(seat) {
    const data = await api("/seats", { seat, code: joinCode() });
    if (!data) return;
    if (data.granted) location.reload(); // the page now shows the join code and the QR code
    else { toast(data.text); connect(); } // the live stream now knows this phone (its new cookie)
  }

  function playerName(seat) { return seat === null || seat === undefined ? "" : snap.table.players[seat]; }

  // Whose seat rolls each asked-for die: one group per seat, in the order asked.
  function owners(request) {
    const extra = request.extra || {};
    const seats = extra.seats || [];
    if (seats.length && extra.counts) return seats.flatMap((seat, i) => Array(extra.counts[i]).fill(seat));
    if (seats.length === request.dice.length) return seats.slice();
    return request.dice.map(() => (request.player === null || request.player === undefined ? null : request.player));
  }

  // "Correct Ann and Ben's roll": the players whose seats rolled the request's dice (plain text).
  function correctTitle(request) {
    const whose = [...new Set(owners(request).filter((s) => s !== null))].map(playerName).join(" and ");
    return "Correct " + (whose ? whose + "'s" : "the last") + " roll";
  }

  const KIND = { d6: "", grey: "small grey ", treehouse: "Treehouse " };
  function dieName(die) {
    if (die.kind === "grey" || die.kind === "treehouse") return KIND[die.kind] + "die";
    return (die.colour ? die.colour + " " : "") + "die";
  }

  // The values of a roll grouped by the seat that rolled them, each in its die's colour and kind.
  function byOwner(request, values) {
    const who = owners(request);
    const groups = [];
    request.dice.forEach((die, i) => {
      const last = groups[groups.length - 1];
      if (!last || last.seat !== who[i]) groups.push({ seat: who[i], dice: [] });
      groups[groups.length - 1].dice.push({ die, value: values ? values[i] : null });
    });
    return groups.map((g) => '<span class="by"><span class="who">' + esc(g.seat === null ? "Roll" : playerName(g.seat)) + "</span> " +
      g.dice.map((d) => '<span class="die ' + esc(d.die.kind) + " " + esc(d.die.colour || "") + '" title="' + esc(dieName(d.die)) + '">' +
        esc(d.value === null ? "?" : d.value) + "</span>").join("") + "</span>").join("");
  }

  // Words over the photo's boxes: whose die and its value ("Ann 6").
  function photoLabels(reading) {
    const request = snap.roll;
    const who = owners(request);
    return reading.dice.filter((d) => d.box).map((d) => {
      const mine = request.dice.map((r, i) => (r.kind === d.kind && (!r.colour || r.colour === d.colour) ? who[i] : undefined))
        .filter((s) => s !== undefined);
      const owner = new Set(mine).size === 1 && mine[0] !== null ? playerName(mine[0]) + " " : "";
      return { box: d.box, text: owner + d.value, unsure: d.sure === false };
    });
  }

  // Labels over a photo once it has its size (now, if it has it already).
  function labelPhoto(img, labels) {
    img.onload = () => placeLabels(img, labels);
    if (img.complete) placeLabels(img, labels);
  }

  // The photo is shown whole in its box (object-fit: contain), so a tall one has bands at its sides and a
  // wide one above and below: each label goes where its die's box lies in the picture, above the box.
  function placeLabels(img, labels) {
    const layer = img.parentElement.querySelector(".labels");
    if (!img.naturalWidth || !layer) return;
    const k = Math.min(img.clientWidth / img.naturalWidth, img.clientHeight / img.naturalHeight);
    const dx = img.offsetLeft + (img.clientWidth - img.naturalWidth * k) / 2;
    const dy = img.offsetTop + (img.clientHeight - img.naturalHeight * k) / 2;
    layer.innerHTML = labels.map((l) => '<span class="label' + (l.unsure ? " unsure" : "") + '" style="left:' +
      Math.round(l.box[0] * k + dx) + "px;top:" + Math.max(0, Math.round(l.box[1] * k + dy) - 22) + 'px">' + esc(l.text) + "</span>").join("");
  }

  function renderTodo() {
    const el = $("todo");
    const todo = snap.todo || [];
    el.hidden = !todo.length;
    el.innerHTML = todo.length ? "<b>Do now:</b> " + todo.map(esc).join("<br>") : "";
  }

  function renderStatus() {
    const el = $("status");
    el.className = "status";
    if (snap.ended) { el.textContent = "The host ended this game"; el.classList.add("over"); return; }
    if (snap.over) {
      const sum = snap.summary || {};
      const winners = sum.winner_names || sum.winners || [];
      el.textContent = winners.length ? winners.join(" and ") + (winners.length > 1 ? " share the win" : " wins") + "!" : "Game over";
      el.classList.add("over");
      return;
    }
    const g = games[gameName];
    const said = g && g.status ? g.status(snap) : null; // a game's own words (DOG: who enters cards, gives)
    if (said) { el.textContent = said.text; if (said.mine) el.classList.add("mine"); return; }
    if (snap.roll) { el.textContent = snap.roll.reason; return; }
    if (snap.state.draw && snap.state.draw.reason) { el.textContent = snap.state.draw.reason; return; }
    if (snap.to_move === snap.seat) { el.textContent = "Your turn, " + playerName(snap.seat); el.classList.add("mine"); return; }
    el.textContent = snap.to_move >= 0 ? playerName(snap.to_move) + "'s turn" : "Waiting…";
  }

  function renderSeats() {
    const el = $("seats");
    el.classList.toggle("sat", snap.seat !== null); // a seated phone keeps its seat list below the game
    const madeHere = localStorage.getItem("made-here:" + tableId) && snap.seat === null && snap.seats.some((s) => !s.taken);
    el.classList.toggle("offer", !!madeHere);
    if (madeHere) {
      el.innerHTML = "<h2>You made this table: which seat is yours?</h2>" + snap.seats.map((s) => s.taken ? "" :
        '<button class="primary seat-pick" data-seat="' + s.seat + '">' + esc(s.name) + "</button>").join("") +
        '<button class="secondary" id="just-watch">Just watch</button>';
      el.querySelectorAll("button[data-seat]").forEach((b) => { b.onclick = () => takeSeat(Number(b.dataset.seat)); });
      $("just-watch").onclick = () => { localStorage.removeItem("made-here:" + tableId); render(snap); };
      return;
    }
    const g = games[gameName];
    const me = snap.phone;
    const asked = snap.requests.filter((r) => r.mine);
    el.innerHTML = "<h2>Players</h2>" + snap.seats.map((s) => {
      const swatch = g && g.swatch ? g.swatch(snap, s.seat) : "";
      let right = "";
      if (s.mine) right = '<span class="me">this phone</span>';
      else if (asked.some((r) => r.seat === s.seat)) right = "<small>asked…</small>";
      else if (!s.taken) right = '<button data-seat="' + s.seat + '">' + (me.seats.length && !me.host ? "Ask for seat" : "Take seat") + "</button>";
      else if (!me.seats.length && !me.host) right = '<button class="secondary" data-seat="' + s.seat + '">My seat: lost phone</button>';
      else right = "<small>joined</small>";
      if (me.host && s.taken && !s.mine) {
        right += ' <button class="secondary" data-free="' + s.seat + '" aria-label="Free ' + esc(s.name) + "'s seat\">Free</button>" +
          ' <button class="secondary" data-make-host="' + s.seat + '" aria-label="Make ' + esc(s.name) + "'s phone host\">Make host</button>";
      }
      const turn = s.seat === snap.to_move ? " ◀" : "";
      return '<div class="seat"><span>' + swatch + esc(s.name) + turn + '</span><span class="seat-actions">' + right + "</span></div>";
    }).join("");
    if (!me.member && !joinCode()) {
      el.innerHTML += '<form id="code-form" class="row"><input id="code-input" maxlength="4" autocapitalize="characters" autocomplete="off" ' +
        'placeholder="Join code" aria-label="Join code"><button type="submit">Use code</button></form>' +
        "<p><small>Watching. To play, type the table's join code (the host's phone shows it), then take your seat.</small></p>";
    } else if (!me.seats.length) el.innerHTML += "<p><small>Watching: take your seat to play.</small></p>";
    el.querySelectorAll("button[data-seat]").forEach((b) => { b.onclick = () => takeSeat(Number(b.dataset.seat)); });
    el.querySelectorAll("button[data-free]").forEach((b) => {
      b.onclick = () => ask("Free " + snap.table.players[Number(b.dataset.free)] + "'s seat? Its phone can no longer play it.", "/seats/" + b.dataset.free + "/free", {});
    });
    el.querySelectorAll("button[data-make-host]").forEach((b) => {
      b.onclick = () => ask("Make " + snap.table.players[Number(b.dataset.makeHost)] + "'s phone the host? This phone stops being host.", "/host/pass", { seat: Number(b.dataset.makeHost) });
    });
    const form = $("code-form");
    if (form) {
      form.onsubmit = (e) => {
        e.preventDefault();
        const code = $("code-input").value.trim().toUpperCase();
        if (code) { sessionStorage.setItem(codeKey, code); render(snap); }
      };
    }
  }

  // A command that needs a "Yes" on this phone first (undo, end, free a seat, pass the host's role).
  function ask(question, path, body) {
    confirming = { question, path, body };
    render(snap);
    $("host").scrollIntoView({ block: "nearest" });
  }

  function renderConfirming() {
    if (!confirming) return "";
    return '<div class="confirming" role="alertdialog" aria-label="Are you sure?"><p>' + esc(confirming.question) + "</p>" +
      '<div class="row"><button class="primary big" id="yes">Yes</button><button class="secondary big" id="no">No, keep it</button></div></div>';
  }

  // The host's card: requests to approve, the game's end, another game, options, the camera's table.
  function renderHost() {
    const el = $("host");
    const me = snap.phone;
    let html = renderConfirming();
    if (snap.running) {
      html += "<p>The camera and the buttons serve another table: <a href=\"/t/" + esc(snap.running.id) + '">' + esc(snap.running.title) +
        " with " + esc(snap.running.players.join(", ")) + "</a>" + (snap.running.in_progress ? " (in progress)" : "") + ".</p>";
      if (me.member) html += '<p><button class="secondary" id="use-here">Use the camera and buttons here</button></p>';
    }
    if (me.host) {
      html += '<h2 class="you-host">You are the host</h2>';
      html += snap.requests.map((r) => '<div class="request"><p>' + esc(r.text) + '</p><div class="row"><button class="primary" data-approve="' + r.id +
        '">Approve</button><button class="secondary" data-decline="' + r.id + '">Decline</button></div></div>').join("");
      html += '<div class="row">';
      if (!snap.over) html += '<button class="secondary" id="end-game">End the game</button>';
      html += '<button class="secondary" id="again">Start another game</button></div>';
      if (!snap.history.length && !snap.over) html += optionsForm();
      if (!snap.running) html += calibrationCard();
    } else if (me.member) {
      const mine = snap.requests.filter((r) => r.mine);
      html += mine.map((r) => '<p class="request">' + esc(r.text) + ": waiting. The host can approve it, or press CONFIRM on the table. " +
        '<button class="secondary" data-decline="' + r.id + '">Cancel</button></p>').join("");
      if (!mine.some((r) => r.kind === "host")) {
        html += '<p><button class="secondary" id="ask-host">' + (snap.has_host ? "Make me host" : "Become host") + "</button></p>";
      }
    }
    el.hidden = !html;
    el.innerHTML = html;
    if ($("yes")) {
      $("yes").onclick = async () => {
        const c = confirming;
        confirming = null;
        const ok = await api(c.path, c.body);
        if (ok && ok.url) location.href = ok.url;
        render(snap);
      };
      $("no").onclick = () => { confirming = null; render(snap); };
    }
    if ($("use-here")) $("use-here").onclick = () => api("/use", {});
    if ($("end-game")) $("end-game").onclick = () => ask("End this game for everyone? Nothing more can be played at it.", "/end", {});
    if ($("again")) $("again").onclick = () => ask("Start another game with the same players and phones?" + (snap.over ? "" : " This one ends."), "/again", {});
    if ($("ask-host")) {
      $("ask-host").onclick = async () => {
        const data = await api("/host", { code: joinCode() });
        if (data) toast(data.granted ? data.text : "Asked to be host: press CONFIRM on the table, or the host approves it");
        if (data) connect();
      };
    }
    el.querySelectorAll("button[data-approve]").forEach((b) => { b.onclick = () => api("/requests/" + b.dataset.approve + "/approve", {}); });
    el.querySelectorAll("button[data-decline]").forEach((b) => { b.onclick = () => api("/requests/" + b.dataset.decline + "/decline", {}); });
    bindCalibration();
    const form = $("options-form");
    if (form) {
      form.onsubmit = (e) => {
        e.preventDefault();
        const options = {};
        form.querySelectorAll("input").forEach((input) => {
          if (input.type === "checkbox") options[input.name] = input.checked;
          else if (input.type === "number") options[input.name] = Number(input.value);
        });
        api("/options", { options });
      };
    }
  }

  // The camera's calibration, for the host of the table the camera serves: a photo of the empty table,
  // then one roll with its values typed (and their colours' names, if the host likes); the companion learns
  // the dice's size, colours and the table.
  function calibrationCard() {
    const colours = snap.table.dice_colours || [];
    // a calibration whose sets lack a colour the game asks for: that roll would never match
    const missing = calibration.names ? colours.filter((c) => !calibration.names.includes(c)) : [];
    let html = '<details id="calibrate"' + (calibration.open || calibration.step === "roll" || missing.length ? " open" : "") +
      "><summary>Calibrate the camera</summary>";
    if (missing.length) {
      html += '<p id="calib-missing" class="warning">' + (calibration.calibrated
        ? "The camera knows dice named " + esc(calibration.names.join(", ")) + "; this game also asks for " +
          esc(missing.join(", ")) + ". Calibrate again, naming each set as the game does."
        : "The camera cannot name " + esc(missing.join(", ")) + " dice by itself: calibrate it, naming each set as the game does.") +
        "</p>";
    }
    if (calibration.learned) html += '<p id="calib-learned">' + esc(calibration.learned) + "</p>";
    if (calibration.photo && calibration.step === "empty") {  // the roll it learned from: which die took which name
      html += '<div class="photo" id="calib-photo"><img alt="The calibration roll, each die boxed with its name" src="/api/tables/' +
        tableId + "/calibration/photo/" + encodeURIComponent(calibration.photo.id) + '.jpg"><div class="labels"></div></div>' +
        "<p>Check each die's name on the photo; if one is wrong, calibrate again.</p>";
    }
    if (calibration.step === "roll" && calibration.refused) {  // the roll refused, as the camera read it
      html += '<div class="photo" id="calib-refused"><img alt="The refused roll, each die the camera found boxed with what it read" src="/api/tables/' +
        tableId + "/calibration/photo/" + encodeURIComponent(calibration.refused.id) + '.jpg"><div class="labels"></div></div>' +
        "<p>That roll, as the camera read it (? where unsure): move a die it missed into the light, take away what it took for a die, or check what you typed, then read the roll again.</p>";
    }
    if (calibration.step === "roll") {
      const named = colours.length ? "; this game tells dice apart by colour, so name each set as it does: " + colours.join(", ")
        : ", each with its colour if you like";
      const example = colours.length ? "3 " + colours[0] + (colours.length > 1 ? ", 5 " + colours[1] : "") : "3 cream, 5 red, 1";
      html += '<form id="calib-roll"><label for="calib-values">Roll one die of each set into the tray, let them settle, ' +
        'then type the number on top of each die' + esc(named) + '</label>' +
        '<input id="calib-values" autocomplete="off" autocapitalize="none" ' +
        'placeholder="' + esc(example) + '" value="' + esc(calibration.values) + '"><div class="row"><button class="primary">Read this roll</button>' +
        '<button type="button" class="secondary" id="calib-cancel">Cancel</button></div></form>';
    } else {
      if (calibration.rotation !== null && calibration.rotation !== undefined) html += turnPicture();
      html += '<p>Take every die off the table, then:</p><p><button class="secondary" id="calib-empty">The table is empty: take its photo</button></p>';
    }
    return html + "</details>";
  }

  // The camera's picture now, and the button that turns it: the reader expects the players' edge of the
  // table at its bottom (a slanted camera shows a die's sides below its top).
  function turnPicture() {
    return '<div class="photo" id="calib-view"><img loading="lazy" alt="The camera\'s picture now" src="' + viewAddress() + '"></div>' +
      "<p>The edge of the table nearest the players belongs at the bottom of this picture.</p>" +
      '<p><button type="button" class="secondary" id="calib-turn">Turn the picture a quarter</button></p>';
  }

  // While the host looks at the camera's picture (the card open, the page in view), it is fetched again every
  // VIEW_EVERY ms, once the last one has come, so it follows the camera as the host moves or turns it.
  const VIEW_EVERY = 2000;
  function refreshView() {
    const img = document.querySelector("#calib-view img");
    if (!img || !img.complete || document.hidden || !calibration.open) return;
    calibration.view += 1;
    img.src = viewAddress();
  }

  // The camera's picture's address: new with each version (`calibration.view`), so no copy is shown again.
  function viewAddress() {
    return "/api/tables/" + tableId + "/calibration/camera.jpg?turn=" + calibration.rotation + "&v=" + calibration.view;
  }

  function photoId(state, which = "photo") { return state[which] ? state[which].id : null; }

  function bindCalibration() {
    const card = $("calibrate");
    if (!card) return;
    card.ontoggle = () => { calibration.open = card.open; };
    const img = card.querySelector("#calib-photo img");
    if (img) labelPhoto(img, calibration.photo.dice);
    const refused = card.querySelector("#calib-refused img");
    if (refused) labelPhoto(refused, calibration.refused.dice);
    const after = (data) => {
      if (!data) return;
      toast(data.text);
      Object.assign(calibration, { step: data.step, learned: data.learned, names: data.names, calibrated: data.calibrated,
        photo: data.photo, refused: data.refused, rotation: data.rotation });
      if (data.step === "empty") calibration.values = "";
      renderHost();
    };
    if ($("calib-empty")) $("calib-empty").onclick = async () => after(await api("/calibration/empty", {}));
    if ($("calib-cancel")) $("calib-cancel").onclick = async () => after(await api("/calibration/cancel", {}));
    if ($("calib-turn")) {
      $("calib-turn").onclick = async () => {
        const data = await api("/calibration/turn", {});
        if (data) calibration.view += 1;  // the picture as it is turned now
        after(data);
      };
    }
    const values = $("calib-values");
    if (values) values.oninput = () => { calibration.values = values.value; };
    if ($("calib-roll")) {
      $("calib-roll").onsubmit = async (e) => {
        e.preventDefault();
        const data = await api("/calibration/roll", { values: values.value });
        if (data) after(data);
        else checkHealth();  // refused: the page shows the roll as the camera read it
      };
    }
  }

  // The options a host may change before the first move: the true/false and number ones.
  function optionsForm() {
    const rows = Object.entries(snap.table.options).filter(([, v]) => typeof v === "boolean" || typeof v === "number");
    if (!rows.length) return "";
    return '<form id="options-form"><h2>Options</h2>' + rows.map(([k, v]) => "<label>" + (typeof v === "boolean"
      ? '<input type="checkbox" name="' + esc(k) + '"' + (v ? " checked" : "") + ">"
      : '<input type="number" name="' + esc(k) + '" value="' + esc(v) + '">') + " " + esc(k.replaceAll("_", " ")) + "</label>").join("") +
      '<button type="submit" class="secondary">Change the options</button></form>';
  }

  function faceRows(request, values, onPick) {
    return request.dice.map((die, i) => {
      const faces = FACES[die.kind] || [];
      const who = owners(request)[i];
      return '<div><small>' + esc((who === null ? "" : playerName(who) + "'s ") + dieName(die)) + '</small><div class="faces">' +
        faces.map((f) => '<button data-die="' + i + '" data-face="' + esc(f) + '" class="' + (values[i] === f ? "chosen" : "") + '">' + esc(f) + "</button>").join("") +
        "</div></div>";
    }).join("");
  }

  const FACES = { d6: [1, 2, 3, 4, 5, 6], grey: [1, 2, 3, 4], treehouse: ["AIM", "TIP", "HOP", "DIG", "SWAP", "WILD"] };

  function renderManual(el, request) {
    const box = document.createElement("div");
    box.innerHTML = "<h2>" + esc(manual.mode === "correct" ? correctTitle(request) : "Type the dice") + "</h2>" +
      faceRows(request, manual.values) +
      '<div class="row"><button class="primary big" id="manual-ok">Use these dice</button><button id="manual-cancel">Cancel</button></div>';
    box.querySelectorAll("button[data-die]").forEach((b) => {
      b.onclick = () => {
        const face = b.dataset.face;
        manual.values[Number(b.dataset.die)] = /^\d+$/.test(face) ? Number(face) : face;
        render(snap);
      };
    });
    box.querySelector("#manual-ok").disabled = manual.values.some((v) => v === null);
    box.querySelector("#manual-ok").onclick = async () => {
      const values = manual.values;
      const ok = manual.mode === "correct" ? await command("/correct", { values }) : await act({ type: "roll", values });
      if (ok) { manual = null; render(snap); }
    };
    box.querySelector("#manual-cancel").onclick = () => { manual = null; render(snap); };
    el.appendChild(box);
  }

  function renderRoll() {
    const el = $("roll");
    const seated = snap.phone.may_roll; // the seats that rolled, or the host: others watch
    if (!snap.roll) {
      el.hidden = !(manual && manual.mode === "correct" && manual.request);
      el.innerHTML = "";
      if (!el.hidden) renderManual(el, manual.request);
      return;
    }
    el.hidden = false;
    const r = snap.reading;
    let html = ""; // the bar above says who rolls what
    if (!r) html += '<p class="reason">Roll into the tray; the companion reads the dice when they settle.</p>';
    else {
      html += '<div class="photo"><img alt="The dice as the camera saw them" src="/api/tables/' + tableId + "/photo/" +
        encodeURIComponent(r.photo_id) + '.jpg"><div class="labels"></div></div>';
      if (r.values) html += '<p class="values">' + byOwner(snap.roll, r.values) + "</p>";
      if (r.problems.length) html += '<p class="problems">' + r.problems.map(esc).join("<br>") + "</p>";
    }
    if (seated) {
      const ready = r && r.certain;
      html += '<div class="row"><button class="confirm big" id="confirm"' + (ready ? "" : " disabled") + ">" +
        (ready ? "CONFIRM" : "CONFIRM<small>" + (r ? "needs a clear reading" : "waiting for the dice") + "</small>") + "</button>" +
        '<button class="retry big" id="retry">RETRY</button></div>' +
        '<p><button class="secondary" id="type-dice">Type the dice instead</button></p>';
    }
    el.innerHTML = html;
    const img = el.querySelector(".photo img");
    if (img) labelPhoto(img, photoLabels(r));
    if (seated) {
      $("confirm").onclick = () => api("/confirm", { reading: r.photo_id });
      $("retry").onclick = () => command("/retry");
      $("type-dice").onclick = () => {
        manual = { mode: "roll", values: snap.roll.dice.map((d, i) => (r && r.values ? r.values[i] : null)) };
        render(snap);
      };
    }
    if (manual && manual.mode === "roll") renderManual(el, snap.roll);
  }

  function renderControls() {
    const el = $("controls");
    const buttons = [];
    if (snap.can_undo) buttons.push('<button id="undo" class="secondary">Undo last move</button>');
    if (snap.phone.may_correct && snap.last_roll && snap.last_roll.request && !snap.roll) {
      buttons.push('<button id="correct" class="secondary">' + esc(correctTitle(snap.last_roll.request)) + "</button>");
    }
    el.hidden = !buttons.length;
    el.innerHTML = '<div class="row">' + buttons.join("") + "</div>";
    if ($("undo")) $("undo").onclick = () => ask("Undo " + snap.undo_what + "?", "/undo", { version: snap.version });
    // After the end, correcting a roll reopens the game: ask first.
    const sure = (what) => !snap.over || window.confirm("The game is over. " + what + " and reopen it?");
    if ($("correct")) {
      $("correct").onclick = () => {
        const last = snap.last_roll;
        if (!last || !sure("Correct the last roll")) return;
        manual = { mode: "correct", request: last.request, values: last.values.slice() };
        render(snap);
      };
    }
  }

  function renderHistory() {
    $("history").innerHTML = snap.history.slice().reverse().map((h) =>
      "<li>" + h.texts.map(esc).join("<br>") + (h.by ? " <small>(" + esc(h.by) + ")</small>" : "") + "</li>").join("");
  }

  function render(s) {
    snap = s;
    renderStatus();
    renderTodo();
    renderSeats();
    renderHost();
    renderRoll();
    renderControls();
    const g = games[gameName];
    if (g) g.render(snap, $("board"), { act, api, esc, toast, playerName, render: () => render(snap) });
    const summary = $("summary");
    summary.hidden = !snap.summary;
    if (snap.summary && g && g.summary) {
      summary.innerHTML = g.summary(snap, esc); // the host's card offers another game with the same seats
    }
    renderHistory();
  }

  function start() {
    if ($("show-qr")) $("show-qr").onclick = () => { $("qr").hidden = !$("qr").hidden; };
    joinCode();
    connect();
    checkHealth();
    setInterval(checkHealth, 5000);
    setInterval(refreshView, VIEW_EVERY);
  }

  return { start, games, esc };
})();
