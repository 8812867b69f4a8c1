// The first page: join by code, or create a table with players and the game's options.
(function () {
  const players = document.getElementById("players");
  const options = document.getElementById("options");
  const gameSelect = document.getElementById("game");

  function addPlayer(name) {
    const row = document.createElement("div");
    row.className = "row";
    row.innerHTML = '<input name="player" autocomplete="off" aria-label="Player name">' +
      '<button type="button" class="secondary" aria-label="Remove player">&times;</button>';
    row.querySelector("input").value = name || "";
    row.querySelector("button").onclick = () => row.remove();
    players.appendChild(row);
  }

  function showOptions() {
    const game = window.GAMES.find((g) => g.name === gameSelect.value);
    options.querySelectorAll("label").forEach((l) => l.remove());
    for (const [key, value] of Object.entries(game.options)) {
      const label = document.createElement("label");
      const input = document.createElement("input");
      input.name = key;
      input.dataset.kind = Array.isArray(value) || value === null ? "list" : typeof value;
      if (typeof value === "boolean") { input.type = "checkbox"; input.checked = value; }
      else if (typeof value === "number") { input.type = "number"; input.value = value; }
      else { input.value = Array.isArray(value) ? value.join(", ") : (value ?? ""); }
      label.append(input, " " + key.replaceAll("_", " "));
      options.appendChild(label);
    }
    options.hidden = !Object.keys(game.options).length;
    while (players.querySelectorAll(".row").length < game.min_players) addPlayer("");
  }

  function readOptions() {
    const out = {};
    options.querySelectorAll("input").forEach((input) => {
      const kind = input.dataset.kind;
      if (kind === "boolean") out[input.name] = input.checked;
      else if (kind === "number") out[input.name] = Number(input.value);
      else if (kind === "list") { const items = input.value.split(",").map((s) => s.trim()).filter(Boolean); if (items.length) out[input.name] = items; }
      else if (input.value !== "") out[input.name] = input.value;
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
    location.href = data.url;
  };
  addPlayer(""); addPlayer("");
  showOptions();
})();
