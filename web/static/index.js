// The first page: join by code, or create a table with players and the game's options.
(function () {
  const players = document.getElementById("players");
  const options = document.getElementById("options");
  const gameSelect = document.getElementById("game");

  function addPlayer(name) {
    const row = document.createElement("div");
    row.className = "row";
    const n = players.querySelectorAll(".row").length + 1;
    row.innerHTML = '<input name="player" autocomplete="off" aria-label="Player ' + n + ' name" placeholder="Player ' + n + ' name">' +
      '<button type="button" class="secondary" aria-label="Remove player">&times;</button>';
    row.querySelector("input").value = name || "";
    row.querySelector("button").onclick = () => row.remove();
    players.appendChild(row);
  }

  const esc = (s) => String(s).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]));

  // One block per option, from the game's own words: a label, one line of help, a switch for yes/no,
  // a select for a few values (the usual one marked), a text box for a list.
  function optionBlock(f) {
    const id = "opt-" + f.name;
    let control;
    if (f.kind === "switch") {
      control = '<input type="checkbox" role="switch" id="' + id + '" name="' + f.name + '" data-kind="switch"' + (f.default ? " checked" : "") + ">";
    } else if (f.kind === "select") {
      control = '<select id="' + id + '" name="' + f.name + '" data-kind="select">' + f.choices.map((c) =>
        '<option value="' + esc(c.value) + '"' + (c.value === f.default ? " selected" : "") + ">" + esc(c.label) +
        (c.value === f.default ? " (usual)" : "") + "</option>").join("") + "</select>";
    } else if (f.kind === "number") {
      control = '<input type="number" id="' + id + '" name="' + f.name + '" data-kind="number" data-usual="' + esc(f.default) + '" value="' + esc(f.default) + '">';
    } else {
      control = '<input id="' + id + '" name="' + f.name + '" data-kind="list" placeholder="usual: leave empty" autocomplete="off">';
    }
    const top = f.kind === "switch" ? '<label class="switch" for="' + id + '">' + control + "<span>" + esc(f.label) + "</span></label>"
      : '<label for="' + id + '">' + esc(f.label) + "</label>" + control;
    return '<div class="option ' + f.kind + '">' + top + '<p class="help">' + esc(f.help) +
      (f.kind === "switch" ? " Usually " + (f.default ? "on" : "off") + "." : "") + "</p></div>";
  }

  function showOptions() {
    const game = window.GAMES.find((g) => g.name === gameSelect.value);
    options.innerHTML = game.fields.map(optionBlock).join("");
    document.getElementById("options-box").hidden = !game.fields.length;
    document.getElementById("players-label").textContent = game.players_label;
    while (players.querySelectorAll(".row").length < game.min_players) addPlayer("");
  }

  function readOptions() {
    const out = {};
    options.querySelectorAll("[data-kind]").forEach((input) => {
      const kind = input.dataset.kind;
      if (kind === "switch") out[input.name] = input.checked;
      // a number left at its usual value is not sent: the game chooses it for the table (DOG's first
      // dealer is the last seat, whatever the number of players)
      else if (kind === "number") { if (input.value !== input.dataset.usual) out[input.name] = Number(input.value); }
      else if (kind === "list") { const items = input.value.split(",").map((s) => s.trim()).filter(Boolean); if (items.length) out[input.name] = items; }
      else out[input.name] = input.value;
    });
    return out;
  }

  function toast(text) {
    const el = document.getElementById("toast");
    el.textContent = text; el.className = "show error";
    el.scrollIntoView({ block: "nearest" });
    setTimeout(() => { el.className = ""; }, 4000);
  }

  document.getElementById("add-player").onclick = () => addPlayer("");
  gameSelect.onchange = showOptions;
  document.getElementById("join").onsubmit = (e) => {
    e.preventDefault();
    const code = document.getElementById("join-code").value.trim().toUpperCase();
    if (code) location.href = "/j/" + encodeURIComponent(code);
  };
  document.getElementById("create").onsubmit = async (e) => {
    e.preventDefault();
    const names = [...players.querySelectorAll("input")].map((i) => i.value.trim()).filter(Boolean);
    const res = await fetch("/api/tables", {
      method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ game: gameSelect.value, players: names, options: readOptions() }),
    });
    const data = await res.json();
    if (!res.ok) return toast(data.error);
    localStorage.setItem("made-here:" + data.id, "1"); // the table page then offers this phone a seat at once
    location.href = data.url;
  };
  addPlayer(""); addPlayer("");
  showOptions();
})();
