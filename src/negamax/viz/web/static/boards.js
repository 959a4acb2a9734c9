// The boards, one drawing per kind of game, each played by clicking. A board gets the
// server's state (its "view", the legal moves as text) and calls play(moveText).
const SVG = "http://www.w3.org/2000/svg";

function element(name, attributes = {}, parent = null) {
  const node = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, value);
  if (parent) parent.appendChild(node);
  return node;
}

function svgRoot(container, width, height, label) {
  container.replaceChildren();
  return element("svg", { viewBox: `0 0 ${width} ${height}`, role: "img", "aria-label": label }, container);
}

// Where a pointer event falls, in the SVG's own coordinates.
function svgPoint(svg, event) {
  const point = svg.createSVGPoint();
  point.x = event.clientX;
  point.y = event.clientY;
  return point.matrixTransform(svg.getScreenCTM().inverse());
}

export function drawBoard(container, state, options) {
  const draw = { tictactoe, nim, connect4, chess, draughts }[state.view.kind] || text;
  draw(container, state, options);
}

// A move's solved value as a board shows it (solution mode): its short text, its colour
// (the side to move wins there, loses, or neither), and what a hover or a tap says.
function solvedValue(answer) {
  const pending = answer.score === null && answer.source === "solving";  // still being solved
  if (answer.score === null) {
    return { short: pending ? "…" : "?", colour: "#98a2b3", said: pending ? "being solved" : "not solved in time", outcome: pending ? "pending" : "unknown" };
  }
  const outcome = answer.score > 0 ? "win" : answer.score < 0 ? "loss" : "draw";
  const colour = { win: "#15803d", loss: "#b91c1c", draw: "#475467" }[outcome];
  return { short: String(answer.score), colour, said: outcome === "draw" ? "draw" : answer.text, outcome };
}

// -- tic-tac-toe: click a free cell ------------------------------------------------------

function tictactoe(container, state, { play, hints, solution }) {
  const svg = svgRoot(container, 300, 300, "tic-tac-toe board");
  const legal = new Set(state.moves);
  state.view.cells.forEach((mark, cell) => {
    const x = (cell % 3) * 100, y = Math.floor(cell / 3) * 100;
    const square = element("rect", { x: x + 2, y: y + 2, width: 96, height: 96, rx: 8, fill: "#fff", stroke: "#98a2b3", class: "cell", "data-move": String(cell) }, svg);
    if (mark === "X") {
      element("path", { d: `M${x + 25} ${y + 25}L${x + 75} ${y + 75}M${x + 75} ${y + 25}L${x + 25} ${y + 75}`, stroke: "#b91c1c", "stroke-width": 9, "stroke-linecap": "round", class: "mark" }, svg);
    } else if (mark === "O") {
      element("circle", { cx: x + 50, cy: y + 50, r: 27, fill: "none", stroke: "#1d4ed8", "stroke-width": 9, class: "mark" }, svg);
    } else if (legal.has(String(cell))) {
      const answer = solution && solution.get(String(cell));
      if (answer) {
        // the cell's exact value for the side to move if they play there: a click still plays
        const value = solvedValue(answer);
        const label = element("text", { x: x + 50, y: y + 56, "font-size": 17, "font-weight": 600, "text-anchor": "middle", fill: value.colour, class: "solution in-cell", "data-move": String(cell) }, svg);
        label.textContent = answer.score === null ? value.short : value.said;
        element("title", {}, square).textContent = `cell ${cell}: ${value.said}`;
      } else if (hints) {
        element("circle", { cx: x + 50, cy: y + 50, r: 6, fill: "#d0d5dd", class: "mark" }, svg);
      }
      square.addEventListener("click", () => play(String(cell)));
    }
  });
  // the end: a line through the three in a row
  const centre = (cell) => [(cell % 3) * 100 + 50, Math.floor(cell / 3) * 100 + 50];
  const cells = state.view.cells;
  for (const [a, b, c] of [[0, 1, 2], [3, 4, 5], [6, 7, 8], [0, 3, 6], [1, 4, 7], [2, 5, 8], [0, 4, 8], [2, 4, 6]]) {
    if (!cells[a] || cells[a] !== cells[b] || cells[a] !== cells[c]) continue;
    const [[x1, y1], [x2, y2]] = [centre(a), centre(c)];
    element("line", { x1, y1, x2, y2, stroke: "#f59e0b", "stroke-width": 10, "stroke-linecap": "round", opacity: 0.8, class: "mark three" }, svg);
  }
  const last = state.played.length ? Number(state.played[state.played.length - 1]) : -1;
  if (last >= 0 && cells[last]) {
    const [x, y] = centre(last);
    element("rect", { x: x - 48, y: y - 48, width: 96, height: 96, rx: 8, fill: "none", stroke: "#f59e0b", "stroke-width": 3, class: "mark last" }, svg);
  }
}

// -- Nim: click an object; it and every object to its right are taken --------------------

function nim(container, state, { play, solution }) {
  const heaps = state.view.heaps;
  const widest = Math.max(1, ...heaps);
  const step = Math.min(34, 560 / widest);
  const width = Math.max(420, 90 + widest * step), height = 20 + heaps.length * 44;
  const svg = svgRoot(container, width, height, "nim heaps");
  const legal = new Set(state.moves);
  heaps.forEach((size, heap) => {
    const y = 32 + heap * 44;
    element("text", { x: 8, y: y + 5, "font-size": 14, fill: "#475467" }, svg).textContent = `heap ${heap + 1}`;
    const tokens = [];
    for (let index = 0; index < size; index++) {
      const take = size - index, move = `${heap + 1}:${take}`;
      const token = element("circle", { cx: 90 + index * step + step / 2, cy: y, r: Math.min(14, step / 2 - 2), fill: "#f59e0b", stroke: "#92400e", class: "token", "data-move": move }, svg);
      const answer = solution && solution.get(move);
      const value = answer ? solvedValue(answer) : null;
      element("title", {}, token).textContent = `take ${take} from heap ${heap + 1}${value ? `: ${value.said}` : ""}`;
      if (value) {
        // solution mode: a ring round each object says what taking from there leads to
        token.setAttribute("stroke", value.colour);
        token.setAttribute("stroke-width", value.outcome === "win" ? 5 : 3);
        if (value.outcome === "pending" || value.outcome === "unknown") token.setAttribute("stroke-dasharray", "3 3");
        token.classList.add(value.outcome);
      }
      tokens.push(token);
      if (!legal.has(move)) continue;
      token.addEventListener("click", () => play(move));
      token.addEventListener("mouseenter", () => tokens.slice(index).forEach((t) => t.setAttribute("fill", "#fde68a")));
      token.addEventListener("mouseleave", () => tokens.forEach((t) => t.setAttribute("fill", "#f59e0b")));
    }
  });
}

// -- Connect 4: click a column, the disc drops -------------------------------------------

const DISC = { X: "#dc2626", O: "#facc15" };

// The cells of every four in a row (as "row,column"), for the end of a game.
function fours(rows, width, height) {
  const found = new Set();
  for (let row = 0; row < height; row++) {
    for (let column = 0; column < width; column++) {
      const mark = rows[row][column];
      if (!mark) continue;
      for (const [down, across] of [[0, 1], [1, 0], [1, 1], [1, -1]]) {
        const cells = [0, 1, 2, 3].map((step) => [row + step * down, column + step * across]);
        if (cells.every(([r, c]) => r < height && c >= 0 && c < width && rows[r][c] === mark)) {
          for (const [r, c] of cells) found.add(`${r},${c}`);
        }
      }
    }
  }
  return found;
}

function connect4(container, state, { play, hints, solution, animate, explain }) {
  const { rows, width, height, columns } = state.view;
  const winning = state.result ? fours(rows, width, height) : new Set();
  const lastColumn = state.played.length ? columns.indexOf(state.played[state.played.length - 1]) : -1;
  const cell = 60, scoreRow = solution ? 44 : 0;
  const svg = svgRoot(container, width * cell, height * cell + scoreRow + 4, "Connect 4 board");
  element("rect", { x: 0, y: 0, width: width * cell, height: height * cell, rx: 10, fill: "#1d4ed8" }, svg);
  const legal = new Set(state.moves);
  const dropped = animate ? columns.indexOf(animate) : -1;
  for (let column = 0; column < width; column++) {
    const top = rows.findIndex((row) => row[column] !== "");
    const free = (top === -1 ? height : top) - 1;
    for (let row = 0; row < height; row++) {
      const mark = rows[row][column];
      const disc = element("circle", { cx: column * cell + cell / 2, cy: row * cell + cell / 2, r: cell * 0.4, fill: mark ? DISC[mark] : "#f8fafc", class: "mark" }, svg);
      if (mark && column === dropped && row === free + 1) {
        element("animate", { attributeName: "cy", from: cell / 2 - cell, to: row * cell + cell / 2, dur: "0.25s", fill: "freeze" }, disc);
      }
      if (winning.has(`${row},${column}`)) {
        element("circle", { cx: column * cell + cell / 2, cy: row * cell + cell / 2, r: cell * 0.32, fill: "none", stroke: "#fff", "stroke-width": 4, class: "mark four" }, svg);
      } else if (mark && column === lastColumn && row === free + 1) {
        element("circle", { cx: column * cell + cell / 2, cy: row * cell + cell / 2, r: cell * 0.08, fill: "#fff", class: "mark last" }, svg);
      }
    }
    const move = columns[column];
    const strip = element("rect", { x: column * cell, y: 0, width: cell, height: height * cell, fill: "transparent", class: "column", "data-move": move }, svg);
    if (legal.has(move)) {
      strip.addEventListener("click", () => play(move));
      if (hints) {
        const ghost = element("circle", { cx: column * cell + cell / 2, cy: free * cell + cell / 2, r: cell * 0.4, fill: "#fca5a5", opacity: 0, class: "mark" }, svg);
        strip.addEventListener("mouseenter", () => ghost.setAttribute("opacity", 0.6));
        strip.addEventListener("mouseleave", () => ghost.setAttribute("opacity", 0));
      }
    }
    if (solution) {
      const answer = solution.get(move);
      const label = element("text", { x: column * cell + cell / 2, y: height * cell + 28, "font-size": 20, "font-weight": 600, "text-anchor": "middle", class: "solution", "data-move": move }, svg);
      if (answer === undefined) continue;
      const value = solvedValue(answer);
      label.textContent = value.short;
      label.setAttribute("fill", value.colour);
      const said = `column ${move}: ${value.said}`;
      element("title", {}, label).textContent = said;
      label.addEventListener("click", () => explain && explain(said));  // a tap, where there is no hover
    }
  }
}

// -- chess: python-chess draws it; click a piece then a square, or drag it ----------------

function chess(container, state, { play, hints, choosePromotion }) {
  container.innerHTML = state.view.svg;
  const svg = container.querySelector("svg");
  svg.setAttribute("aria-label", "chess board");
  const squares = new Map();
  for (const rect of svg.querySelectorAll("rect.square")) {
    const name = [...rect.classList].find((c) => /^[a-h][1-8]$/.test(c));
    squares.set(name, rect);
    rect.setAttribute("data-square", name);
  }
  const pieceAt = new Map();
  for (const use of svg.querySelectorAll("use")) {
    const match = /translate\(([\d.]+),\s*([\d.]+)\)/.exec(use.getAttribute("transform") || "");
    if (!match) continue;
    for (const [name, rect] of squares) {
      if (Number(rect.getAttribute("x")) === Number(match[1]) && Number(rect.getAttribute("y")) === Number(match[2])) pieceAt.set(name, use);
    }
  }
  const marks = element("g", { class: "mark" }, svg);
  let selected = null, dragging = null;

  const targets = (from) => state.moves.filter((m) => m.startsWith(from)).map((m) => m.slice(2, 4));
  const show = () => {
    marks.replaceChildren();
    if (!selected) return;
    const rect = squares.get(selected);
    element("rect", { x: rect.getAttribute("x"), y: rect.getAttribute("y"), width: 45, height: 45, fill: "#2563eb", opacity: 0.35 }, marks);
    if (!hints) return;
    for (const to of new Set(targets(selected))) {
      const t = squares.get(to);
      element("circle", { cx: Number(t.getAttribute("x")) + 22.5, cy: Number(t.getAttribute("y")) + 22.5, r: pieceAt.has(to) ? 20 : 7, fill: pieceAt.has(to) ? "none" : "#1d4ed8", stroke: "#1d4ed8", "stroke-width": pieceAt.has(to) ? 3 : 0, opacity: 0.55 }, marks);
    }
  };
  const attempt = (from, to) => {
    const moves = state.moves.filter((m) => m.slice(0, 4) === from + to);
    if (moves.length === 1) play(moves[0]);
    else if (moves.length > 1) choosePromotion((piece) => play(from + to + piece));
    return moves.length > 0;
  };
  const squareAt = (event) => {
    const point = svgPoint(svg, event);
    for (const [name, rect] of squares) {
      const x = Number(rect.getAttribute("x")), y = Number(rect.getAttribute("y"));
      if (point.x >= x && point.x < x + 45 && point.y >= y && point.y < y + 45) return name;
    }
    return null;
  };

  svg.addEventListener("pointerdown", (event) => {
    const square = squareAt(event);
    if (!square) return;
    if (selected && selected !== square && attempt(selected, square)) { selected = null; show(); return; }
    if (targets(square).length) {
      selected = square;
      show();
      const use = pieceAt.get(square);
      if (use) { dragging = { use, from: square, original: use.getAttribute("transform") }; svg.setPointerCapture(event.pointerId); }
    } else { selected = null; show(); }
  });
  svg.addEventListener("pointermove", (event) => {
    if (!dragging) return;
    const point = svgPoint(svg, event);
    dragging.use.setAttribute("transform", `translate(${point.x - 22.5}, ${point.y - 22.5})`);
  });
  svg.addEventListener("pointerup", (event) => {
    if (!dragging) return;
    const { use, from, original } = dragging;
    dragging = null;
    use.setAttribute("transform", original);
    const square = squareAt(event);
    if (square && square !== from && attempt(from, square)) { selected = null; show(); }
  });
}

// -- draughts: click the piece, then each square it lands on ------------------------------

function draughtsPath(move) {
  return move.split(/[-x]/).map(Number);
}

function draughts(container, state, { play, hints, flipped }) {
  const { size, pieces } = state.view;
  const cell = 50, perRow = size / 2;
  const svg = svgRoot(container, size * cell, size * cell, `${size}x${size} draughts board`);
  const paths = state.moves.map((move) => ({ move, squares: draughtsPath(move) }));
  let chosen = [];
  const layer = element("g", {}, svg), marks = element("g", { class: "mark" }, svg);
  const place = (square) => {
    const index = square - 1, row = Math.floor(index / perRow), spot = index % perRow;
    const column = spot * 2 + (row % 2 === 0 ? 1 : 0);
    return flipped ? [size - 1 - column, size - 1 - row] : [column, row];
  };
  for (let row = 0; row < size; row++) {
    for (let column = 0; column < size; column++) {
      element("rect", { x: column * cell, y: row * cell, width: cell, height: cell, fill: (row + column) % 2 ? "#a16207" : "#fef3c7" }, layer);
    }
  }
  // the last move: its squares tinted; the pieces it took, faint and crossed out
  const last = state.played.length ? draughtsPath(state.played[state.played.length - 1]) : [];
  for (const square of last) {
    const [column, row] = place(square);
    element("rect", { x: column * cell, y: row * cell, width: cell, height: cell, fill: "#facc15", opacity: 0.45, class: "last-move" }, layer);
  }
  for (const [square, piece] of Object.entries(state.view.captured || {})) {
    const [column, row] = place(Number(square));
    const x = column * cell + 25, y = row * cell + 25, white = piece.toLowerCase() === "w";
    const taken = element("g", { class: "captured", opacity: 0.4 }, layer);
    element("circle", { cx: x, cy: y, r: 19, fill: white ? "#f8fafc" : "#1f2937" }, taken);
    element("path", { d: `M${x - 12} ${y - 12}L${x + 12} ${y + 12}M${x + 12} ${y - 12}L${x - 12} ${y + 12}`, stroke: "#b91c1c", "stroke-width": 4 }, taken);
  }
  for (let square = 1; square <= size * perRow; square++) {
    const [column, row] = place(square);
    const hit = element("rect", { x: column * cell, y: row * cell, width: cell, height: cell, fill: "transparent", class: "cell", "data-square": square }, layer);
    element("text", { x: column * cell + 3, y: row * cell + 11, "font-size": 9, fill: "#fde68a" }, layer).textContent = square;
    const piece = pieces[square];
    if (piece) {
      const white = piece.toLowerCase() === "w";
      element("circle", { cx: column * cell + 25, cy: row * cell + 25, r: 19, fill: white ? "#f8fafc" : "#1f2937", stroke: white ? "#475467" : "#000", "stroke-width": 2, class: "mark" }, layer);
      if (piece === piece.toUpperCase()) {
        element("circle", { cx: column * cell + 25, cy: row * cell + 25, r: 10, fill: "none", stroke: white ? "#b45309" : "#facc15", "stroke-width": 3, class: "mark" }, layer);
      }
    }
    hit.addEventListener("click", () => choose(square));
  }
  // The clicked squares name a move if they follow its landing squares in order (the
  // piece first; squares in between may be skipped when that leaves one move).
  const follows = (squares, path) => {
    if (squares[0] !== path[0]) return false;
    let at = 1;
    for (const square of path.slice(1)) {
      while (at < squares.length && squares[at] !== square) at++;
      if (at++ >= squares.length) return false;
    }
    return true;
  };
  const matching = (path) => paths.filter(({ squares }) => follows(squares, path));
  const show = () => {
    marks.replaceChildren();
    for (const square of chosen) {
      const [column, row] = place(square);
      element("rect", { x: column * cell, y: row * cell, width: cell, height: cell, fill: "#2563eb", opacity: 0.35 }, marks);
    }
    if (!hints) return;
    const next = new Set();
    for (const { squares } of chosen.length ? matching(chosen) : paths) {
      const at = chosen.length ? squares.indexOf(chosen[chosen.length - 1], 1) + 1 || 1 : 0;
      if (at < squares.length) next.add(squares[at]);
    }
    for (const square of next) {
      const [column, row] = place(square);
      element("circle", { cx: column * cell + 25, cy: row * cell + 25, r: chosen.length ? 8 : 22, fill: chosen.length ? "#2563eb" : "none", stroke: "#2563eb", "stroke-width": 2, opacity: 0.6 }, marks);
    }
  };
  const choose = (square) => {
    let path = [...chosen, square];
    if (chosen.length === 1 && chosen[0] === square) path = [];
    else if (!matching(path).length) path = matching([square]).length ? [square] : [];
    chosen = path;
    const candidates = path.length > 1 ? matching(path) : [];
    const complete = candidates.filter(({ squares }) => squares[squares.length - 1] === square);
    if (complete.length === 1 && candidates.length === 1) {
      chosen = [];
      play(complete[0].move);
      return;
    }
    show();
  };
  show();
}

// -- any other game: its text, and a button per legal move -------------------------------

function text(container, state) {
  container.replaceChildren();
  const pre = document.createElement("pre");
  pre.textContent = state.view.text;
  container.appendChild(pre);
}
