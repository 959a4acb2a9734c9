// The board editor: a position set up by hand in chess, draughts (and checkers) and Connect 4.
// Pick a piece in the palette, then tap squares: a tap puts it there, a tap on the same piece
// takes it away, the eraser takes away whatever it taps. "Done" asks the server whether the
// position can be played from (POST /api/edit); if it can, the page starts from it exactly as
// if its text had been typed into "Set position", and if not the reason is shown and the
// editor stays open to fix it.
const SVG = "http://www.w3.org/2000/svg";
const $ = (id) => document.getElementById(id);

function element(name, attributes = {}, parent = null) {
  const node = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, value);
  if (parent) parent.appendChild(node);
  return node;
}

// -- chess -----------------------------------------------------------------------------------

const CHESS_START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
const FILES = "abcdefgh";
// the filled glyphs for both sides (a white piece is a filled glyph painted white, outlined);
// U+FE0E keeps a phone from drawing the pawn as an emoji
const GLYPHS = { k: "\u265A", q: "\u265B", r: "\u265C", b: "\u265D", n: "\u265E", p: "\u265F\uFE0E" };
const CHESS_NAMES = { k: "king", q: "queen", r: "rook", b: "bishop", n: "knight", p: "pawn" };
// each castling right, the king's and the rook's squares it needs, and how the page says it
const CASTLING = [
  ["K", "e1", "h1", "white O-O"], ["Q", "e1", "a1", "white O-O-O"],
  ["k", "e8", "h8", "black O-O"], ["q", "e8", "a8", "black O-O-O"],
];

function chessGlyph(parent, symbol, x, y, size) {
  const white = symbol === symbol.toUpperCase();
  const text = element("text", {
    x, y, "font-size": size, "text-anchor": "middle", "dominant-baseline": "central",
    fill: white ? "#fff" : "#111", stroke: white ? "#111" : "#fff", "stroke-width": white ? 1.4 : 0.6,
    "paint-order": "stroke", class: "piece", "data-piece": symbol,
    "font-family": "'DejaVu Sans', 'Segoe UI Symbol', 'Noto Sans Symbols2', 'Apple Symbols', sans-serif",
  }, parent);
  text.textContent = GLYPHS[symbol.toLowerCase()];
  return text;
}

const chess = {
  help: "Pick a piece, then tap squares: a tap puts it there, a tap on the same piece takes it away; the eraser takes away what it taps.",
  palette: () => ["K", "Q", "R", "B", "N", "P", "k", "q", "r", "b", "n", "p"].map((symbol) => ({
    piece: symbol,
    label: pieceName(symbol),
    draw: (svg) => chessGlyph(svg, symbol, 20, 21, 32),
  })),
  read(state, info) {
    const fen = state && state.view.fen ? state.view.fen : CHESS_START;
    const [placement, turn, castling, ep] = fen.split(" ");
    const squares = new Map();
    placement.split("/").forEach((rank, row) => {
      let file = 0;
      for (const char of rank) {
        if (/\d/.test(char)) file += Number(char);
        else squares.set(`${FILES[file++]}${8 - row}`, char);
      }
    });
    return { flipped: Boolean(state && state.view.flipped), squares, turn: turn === "b" ? 1 : 0, castling: new Set(castling === "-" ? [] : castling), ep: ep === "-" ? null : ep, players: players(state, info) };
  },
  start: (info) => chess.read(null, info),
  clear: (board) => ({ ...board, squares: new Map(), castling: new Set() }),
  text(board) {
    const ranks = [];
    for (let rank = 8; rank >= 1; rank--) {
      let row = "", empty = 0;
      for (const file of FILES) {
        const piece = board.squares.get(`${file}${rank}`);
        if (!piece) { empty++; continue; }
        row += (empty || "") + piece;
        empty = 0;
      }
      ranks.push(row + (empty || ""));
    }
    const rights = CASTLING.filter(([right]) => board.castling.has(right) && castlingPossible(board, right)).map(([right]) => right).join("");
    const ep = enPassantSquares(board).includes(board.ep) ? board.ep : "-";
    return `${ranks.join("/")} ${board.turn ? "b" : "w"} ${rights || "-"} ${ep} 0 1`;
  },
  draw(container, board, tap) {
    const cell = 45, svg = root(container, 8 * cell, 8 * cell, "chess board being edited");
    for (let row = 0; row < 8; row++) {
      for (let column = 0; column < 8; column++) {
        const name = board.flipped ? `${FILES[7 - column]}${row + 1}` : `${FILES[column]}${8 - row}`;
        const square = element("rect", { x: column * cell, y: row * cell, width: cell, height: cell, fill: (row + column) % 2 ? "#d18b47" : "#ffce9e", class: "cell", "data-square": name }, svg);
        const piece = board.squares.get(name);
        tappable(square, name, piece ? `${name}, ${pieceName(piece)}` : name, () => tap(name));
        if (piece) chessGlyph(svg, piece, column * cell + cell / 2, row * cell + cell / 2 + 1, 38).setAttribute("data-square", name);
      }
    }
    for (let column = 0; column < 8; column++) element("text", { x: column * cell + cell - 3, y: 8 * cell - 3, "font-size": 8, "text-anchor": "end", fill: "#5b3a1a", class: "coordinate" }, svg).textContent = FILES[board.flipped ? 7 - column : column];
    for (let row = 0; row < 8; row++) element("text", { x: 2, y: row * cell + 9, "font-size": 8, fill: "#5b3a1a", class: "coordinate" }, svg).textContent = String(board.flipped ? row + 1 : 8 - row);
  },
  place(board, square, piece) {
    const squares = new Map(board.squares);
    if (piece === null || squares.get(square) === piece) squares.delete(square);
    else squares.set(square, piece);
    return { ...board, squares };
  },
};

// The squares a pawn of the side not to move may just have skipped (two squares forward from
// its first rank, both squares behind it empty): where the side to move may take en passant.
function enPassantSquares(board) {
  const [pawn, from, to, passed] = board.turn === 0 ? ["p", 7, 5, 6] : ["P", 2, 4, 3];
  return [...FILES].filter((file) => board.squares.get(`${file}${to}`) === pawn && !board.squares.has(`${file}${passed}`) && !board.squares.has(`${file}${from}`))
    .map((file) => `${file}${passed}`);
}

const pieceName = (symbol) => `${symbol === symbol.toUpperCase() ? "white" : "black"} ${CHESS_NAMES[symbol.toLowerCase()]}`;

function castlingPossible(board, right) {
  const [, king, rook] = CASTLING.find(([name]) => name === right);
  const white = right === right.toUpperCase();
  return board.squares.get(king) === (white ? "K" : "k") && board.squares.get(rook) === (white ? "R" : "r");
}

// -- draughts --------------------------------------------------------------------------------

const DRAUGHTS_PIECES = [["w", "white man"], ["W", "white king"], ["b", "black man"], ["B", "black king"]];
const DRAUGHTS_NAMES = Object.fromEntries(DRAUGHTS_PIECES);

function draughtsDisc(parent, piece, x, y, radius, square = "") {
  const white = piece.toLowerCase() === "w";
  element("circle", { cx: x, cy: y, r: radius, fill: white ? "#f8fafc" : "#1f2937", stroke: white ? "#475467" : "#000", "stroke-width": 2, class: "piece", "data-piece": piece, "data-square": square }, parent);
  if (piece === piece.toUpperCase()) element("circle", { cx: x, cy: y, r: radius / 2, fill: "none", stroke: white ? "#b45309" : "#facc15", "stroke-width": 3 }, parent);
}

const draughts = {
  help: "Pick a man or a king, then tap the dark squares: a tap puts it there, a tap on the same piece takes it away; the eraser takes away what it taps.",
  palette: () => DRAUGHTS_PIECES.map(([piece, label]) => ({ piece, label, draw: (svg) => draughtsDisc(svg, piece, 20, 20, 15) })),
  read(state, info) {
    if (!state) return draughts.start(info);
    const pieces = new Map(Object.entries(state.view.pieces).map(([square, piece]) => [Number(square), piece]));
    return { size: state.view.size, pieces, turn: state.turn, players: players(state, info) };
  },
  start(info, size = info.size) {  // the board's width, from /api/games
    // each side on its first size/2 - 1 rows, Black at the top (square 1), White at the bottom
    const count = size * size / 2, rows = size / 2 - 1, perRow = size / 2, pieces = new Map();
    for (let square = 1; square <= rows * perRow; square++) pieces.set(square, "b");
    for (let square = count - rows * perRow + 1; square <= count; square++) pieces.set(square, "w");
    return { size, pieces, turn: 0, players: players(null, info) };
  },
  clear: (board) => ({ ...board, pieces: new Map() }),
  text(board) {
    const side = (colour) => [...board.pieces].filter(([, piece]) => piece.toLowerCase() === colour)
      .sort(([a], [b]) => a - b).map(([square, piece]) => (piece === piece.toUpperCase() ? "K" : "") + square).join(",");
    const mover = board.players[board.turn] === "black" ? "B" : "W";
    return `${mover}:W${side("w")}:B${side("b")}`;
  },
  draw(container, board, tap) {
    const { size } = board, cell = 50, perRow = size / 2;
    const svg = root(container, size * cell, size * cell, `${size}x${size} draughts board being edited`);
    for (let row = 0; row < size; row++) {
      for (let column = 0; column < size; column++) {
        element("rect", { x: column * cell, y: row * cell, width: cell, height: cell, fill: (row + column) % 2 ? "#a16207" : "#fef3c7" }, svg);
      }
    }
    // only the dark squares are numbered, and only they take a piece
    for (let square = 1; square <= size * perRow; square++) {
      const row = Math.floor((square - 1) / perRow), column = ((square - 1) % perRow) * 2 + (row % 2 === 0 ? 1 : 0);
      const hit = element("rect", { x: column * cell, y: row * cell, width: cell, height: cell, fill: "transparent", class: "cell", "data-square": square }, svg);
      const piece = board.pieces.get(square);
      tappable(hit, square, `square ${square}${piece ? `, ${DRAUGHTS_NAMES[piece]}` : ""}`, () => tap(square));
      element("text", { x: column * cell + 3, y: row * cell + 11, "font-size": 9, fill: "#fde68a", class: "coordinate" }, svg).textContent = square;
      if (piece) draughtsDisc(svg, piece, column * cell + 25, row * cell + 25, 19, square);
    }
  },
  place(board, square, piece) {
    const pieces = new Map(board.pieces);
    if (piece === null || pieces.get(square) === piece) pieces.delete(square);
    else pieces.set(square, piece);
    return { ...board, pieces };
  },
};

// -- Connect 4 -------------------------------------------------------------------------------

const DISCS = { X: "#dc2626", O: "#facc15" };

const connect4 = {
  help: "Pick a disc, then tap a column: the disc drops to its lowest empty cell. A tap on a disc turns it the colour picked, or takes it away if it is already that colour; the eraser takes away the disc it taps, or the top one of the column.",
  palette: (board) => ["X", "O"].map((piece, index) => ({
    piece, label: `${board.players[index]} disc`,
    draw: (svg) => element("circle", { cx: 20, cy: 20, r: 15, fill: DISCS[piece], stroke: "#1d4ed8", "stroke-width": 2, class: "piece", "data-piece": piece }, svg),
  })),
  read(state, info) {
    if (!state) return connect4.start(info);
    const { rows, width, height } = state.view;
    return { rows: rows.map((row) => [...row]), width, height, turn: state.turn, players: players(state, info) };
  },
  start: (info, width = 7, height = 6) => ({ rows: Array.from({ length: height }, () => Array(width).fill("")), width, height, turn: 0, players: players(null, info) }),
  clear: (board) => ({ ...connect4.start(null, board.width, board.height), turn: 0, players: board.players }),
  text: (board) => board.rows.map((row) => row.map((mark) => mark || ".").join("")).join("/"),
  draw(container, board, tap) {
    const { rows, width, height } = board, cell = 60;
    const svg = root(container, width * cell, height * cell, "Connect 4 board being edited");
    element("rect", { x: 0, y: 0, width: width * cell, height: height * cell, rx: 10, fill: "#1d4ed8" }, svg);
    for (let row = 0; row < height; row++) {
      for (let column = 0; column < width; column++) {
        const mark = rows[row][column];
        const disc = element("circle", { cx: column * cell + cell / 2, cy: row * cell + cell / 2, r: cell * 0.4, fill: mark ? DISCS[mark] : "#f8fafc", class: "cell", "data-cell": `${row},${column}`, "data-piece": mark }, svg);
        const said = mark ? `, ${board.players[mark === "X" ? 0 : 1]} disc` : "";
        tappable(disc, `${row},${column}`, `column ${column + 1}, row ${height - row}${said}`, () => tap([row, column]));
      }
    }
  },
  // a disc picked drops to the lowest empty cell of the column tapped, or recolours the disc tapped (the
  // same colour tapped again takes it away); the eraser takes away the disc tapped, or, tapped
  // above the column, its top disc. A disc taken from under others leaves them floating,
  // which Done refuses, as it refuses any board no game could have reached.
  place(board, [row, column], piece) {
    const rows = board.rows.map((cells) => [...cells]);
    const top = rows.findIndex((cells) => cells[column] !== "");
    if (rows[row][column]) {
      rows[row][column] = piece === null || rows[row][column] === piece ? "" : piece;
    } else if (piece === null) {
      if (top >= 0) rows[top][column] = "";
    } else {
      // the lowest empty cell: under a floating disc too, which the drop then holds up
      const free = rows.map((cells) => cells[column]).lastIndexOf("");
      rows[free][column] = piece;
    }
    return { ...board, rows };
  },
};

const KINDS = { chess, draughts, connect4 };
// the boards this page edits, of those the server says it checks (/api/games: "editable")
const editable = (info) => Boolean(info && info.editable && info.kind in KINDS);

function players(state, info) {
  if (state) return state.players;
  if (info && info.name === "checkers") return ["black", "white"];
  return info && info.kind === "connect4" ? ["red", "yellow"] : ["white", "black"];
}

// A square (or a cell) that a tap, a click, or Enter or Space once it has the focus, edits.
function tappable(node, key, label, action) {
  node.setAttribute("data-key", key);
  node.setAttribute("tabindex", "0");
  node.setAttribute("role", "button");
  node.setAttribute("aria-label", label);
  node.addEventListener("click", action);
  node.addEventListener("keydown", (event) => {
    if (event.key !== "Enter" && event.key !== " ") return;
    event.preventDefault();
    action();
  });
}

function root(container, width, height, label) {
  container.replaceChildren();
  return element("svg", { viewBox: `0 0 ${width} ${height}`, role: "group", "aria-label": label }, container);
}

// -- the editor ------------------------------------------------------------------------------

export class BoardEditor {
  // currentState(): the page's state (its board, whose turn); currentGame(): the game's entry
  // in /api/games (its name and kind); opening(): called as the editor opens, to stop what
  // would change the game under it (the engine's reply being searched).
  constructor(currentState, currentGame, opening = () => {}) {
    this.currentState = currentState;
    this.currentGame = currentGame;
    this.opening = opening;
    this.board = null;
    this.kind = null;
    this.piece = null;   // the palette's choice: a piece, or null for the eraser
    $("edit").addEventListener("click", () => this.open());
    $("editor-cancel").addEventListener("click", () => this.close());
    $("editor-clear").addEventListener("click", () => this.change(KINDS[this.kind].clear(this.board)));
    $("editor-start").addEventListener("click", () => this.change({ ...KINDS[this.kind].start(this.currentGame(), ...this.size()), flipped: this.board.flipped }));
    $("editor-done").addEventListener("click", () => this.done());
    // a new game or a start typed while the editor is open: the board shown is that one
    $("new").addEventListener("click", () => this.close());
    $("start-form").addEventListener("submit", () => this.close());
  }

  // A game chosen: the editor closes, and its button shows for the boards it edits.
  chosen(info) {
    this.close();
    $("edit").hidden = !editable(info);
  }

  size() {
    const board = this.board;
    return this.kind === "draughts" ? [board.size] : this.kind === "connect4" ? [board.width, board.height] : [];
  }

  open() {
    const info = this.currentGame();
    if (!editable(info)) return;
    this.opening();
    this.kind = info.kind;
    this.board = KINDS[this.kind].read(this.currentState(), info);
    this.piece = KINDS[this.kind].palette(this.board)[0].piece;
    $("editor-help").textContent = KINDS[this.kind].help;
    $("editor").hidden = false;
    $("play").classList.add("editing");
    $("edit").disabled = true;
    this.showError(null);
    this.drawPalette();
    this.draw();
  }

  close() {
    $("editor").hidden = true;
    $("play").classList.remove("editing");
    $("edit").disabled = false;
    this.board = null;
  }

  showError(message) {
    $("editor-error").hidden = !message;
    $("editor-error").textContent = message || "";
  }

  change(board) {
    const before = this.board;
    this.board = board;
    if (this.kind === "chess") this.deriveCastling(before);
    if (this.kind === "connect4") this.deriveTurn();
    this.showError(null);
    this.draw();
  }

  // Castling follows the pieces: a right whose king or rook has left its square goes, and
  // comes back ticked when both stand there again (untick it for a king that has moved).
  deriveCastling(before) {
    const castling = new Set(this.board.castling);
    for (const [right] of CASTLING) {
      const now = castlingPossible(this.board, right), then = before && castlingPossible(before, right);
      if (!now) castling.delete(right);
      else if (!then) castling.add(right);
    }
    this.board = { ...this.board, castling };
  }

  // Connect 4's turn follows the discs (red plays first): red's when both have as many, yellow's
  // when red has one more; any other count keeps the choice, and Done says what is wrong.
  deriveTurn() {
    const count = (mark) => this.board.rows.flat().filter((cell) => cell === mark).length;
    const lead = count("X") - count("O");
    if (lead === 0 || lead === 1) this.board = { ...this.board, turn: lead };
  }

  drawPalette() {
    const buttons = KINDS[this.kind].palette(this.board).map(({ piece, label, draw }) => {
      const button = Object.assign(document.createElement("button"), { type: "button", title: label, className: "piece" });
      button.dataset.piece = piece;
      button.setAttribute("aria-label", label);
      draw(element("svg", { viewBox: "0 0 40 40", "aria-hidden": "true" }, button));
      return button;
    });
    const eraser = Object.assign(document.createElement("button"), { type: "button", title: "take away the piece tapped", className: "piece eraser", textContent: "eraser" });
    eraser.dataset.piece = "";
    buttons.push(eraser);
    for (const button of buttons) {
      button.addEventListener("click", () => { this.piece = button.dataset.piece || null; this.markPalette(); });
    }
    // chess: White's pieces on one row, Black's and the eraser on the next
    const rows = this.kind === "chess" ? [buttons.slice(0, 6), buttons.slice(6)] : [buttons];
    $("editor-palette").replaceChildren(...rows.map((row) => Object.assign(document.createElement("div"), { className: "palette-row" })).map((div, index) => { div.append(...rows[index]); return div; }));
    this.markPalette();
  }

  markPalette() {
    for (const button of $("editor-palette").querySelectorAll("button")) {
      button.setAttribute("aria-pressed", String((button.dataset.piece || null) === this.piece));
    }
  }

  draw() {
    const kind = KINDS[this.kind], container = $("editor-board");
    // a square edited from the keyboard keeps the focus through the redraw
    const focused = container.contains(document.activeElement) ? document.activeElement.getAttribute("data-key") : null;
    kind.draw(container, this.board, (where) => this.change(kind.place(this.board, where, this.piece)));
    if (focused) [...container.querySelectorAll("[data-key]")].find((node) => node.getAttribute("data-key") === focused)?.focus();
    this.drawOptions();
  }

  // Who is to move, and in chess the castling rights the pieces allow.
  drawOptions() {
    const options = [];
    this.board.players.forEach((name, turn) => {
      const label = document.createElement("label"), radio = Object.assign(document.createElement("input"), { type: "radio", name: "editor-turn", value: String(turn), checked: this.board.turn === turn });
      radio.addEventListener("change", () => { this.board = { ...this.board, turn }; this.showError(null); this.drawOptions(); });
      label.append(radio, ` ${name} to move`);
      options.push(label);
    });
    if (this.kind === "chess") {
      for (const [right, , , said] of CASTLING) {
        const label = document.createElement("label"), box = Object.assign(document.createElement("input"), { type: "checkbox", checked: this.board.castling.has(right), disabled: !castlingPossible(this.board, right) });
        box.dataset.right = right;
        box.addEventListener("change", () => {
          const castling = new Set(this.board.castling);
          if (box.checked) castling.add(right); else castling.delete(right);
          this.board = { ...this.board, castling };
        });
        label.title = "needs the king and the rook on their first squares";
        label.append(box, ` ${said}`);
        options.push(label);
      }
      const squares = enPassantSquares(this.board);
      if (squares.length) {
        // offered only where a pawn may just have moved two squares; none, unless chosen
        const label = document.createElement("label"), select = Object.assign(document.createElement("select"), { id: "editor-ep" });
        select.append(new Option("none", ""), ...squares.map((square) => new Option(square, square, false, square === this.board.ep)));
        select.addEventListener("change", () => { this.board = { ...this.board, ep: select.value || null }; });
        label.title = "the square a pawn has just skipped, moving two squares: the side to move may take it en passant";
        label.append("en passant ", select);
        options.push(label);
      }
    }
    $("editor-options").replaceChildren(...options);
  }

  async done() {
    const info = this.currentGame(), asked = this.board, text = KINDS[this.kind].text(asked);
    const body = { game: info.name, position: text, turn: this.board.turn };
    const response = await fetch("/api/edit", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) }).catch(() => null);
    const answer = response ? await response.json().catch(() => ({})) : {};
    if (!response || !response.ok) {
      const reason = !response ? "the server did not answer; try again" : `This position cannot be played from: ${answer.error || `the server answered ${response.status}`}`;
      if (this.board === asked) this.showError(reason);
      return;
    }
    // closed, edited or another game chosen while the server answered: that answer is old
    if (this.board !== asked || this.currentGame().name !== info.name) return;
    this.close();
    // the page starts from it as from a position typed into "Set position"
    $("start").value = answer.start;
    $("start-form").requestSubmit();
  }
}
