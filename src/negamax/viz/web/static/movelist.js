// The move list of a game tree (`MoveTree`): the main line numbered by moves, one row a
// move (the first player's turn, then the second's, however many each made in a row); each
// variation in parentheses under the move it replaces, a variation's own variations in
// parentheses inside it, as lichess's analysis board writes them. Every move is a button
// that goes to the position after it.

// Who played each move, and its number, for every node: from the server's answers where it
// said (`node.mover`), otherwise the players alternating from `firstMover`.
function number(tree, firstMover) {
  const stack = tree.root.children.map((at) => [at, 1, null, null]);
  while (stack.length) {
    const [at, depth, parentMover, parentNumber] = stack.pop();
    const mover = at.mover ?? (firstMover + depth - 1) % 2;
    at.shownMover = mover;
    at.number = parentNumber === null ? 1 : mover === 0 && parentMover !== 0 ? parentNumber + 1 : parentNumber;
    for (const child of at.children) stack.push([child, depth + 1, mover, at.number]);
  }
}

function button(tree, at, go) {
  const button = Object.assign(document.createElement("button"), {
    className: "played" + (at === tree.current ? " current" : "") + (tree.isMain(at) ? "" : " side"),
    textContent: (at.shown ?? at.move) + (at.byEngine ? " (engine)" : ""),
    title: "go to the position after this move",
  });
  button.addEventListener("click", () => go(at));
  return button;
}

// A move's number where a line is read from it: "3." before the first player's, "3…" before
// the second's; inside a line only where a new number begins.
const label = (at, first) => (at.shownMover === 0 && (first || at.parent.shownMover !== 0) ? `${at.number}. ` : first ? `${at.number}… ` : "");

// A move in a variation, its number with it (the two are never split across lines).
function step(tree, at, first, go) {
  const span = Object.assign(document.createElement("span"), { className: "step" });
  span.append(label(at, first), button(tree, at, go));
  return span;
}

// A variation from its first move `first` to its end, in parentheses, its own variations
// nested after the moves they replace.
function variation(tree, first, go) {
  const span = Object.assign(document.createElement("span"), { className: "variation" });
  span.append("(", step(tree, first, true, go), " ");
  let fresh = false;
  for (let at = first; at.children.length; ) {
    const [next, ...others] = at.children;
    span.append(step(tree, next, fresh, go), " ");
    fresh = false;
    for (const other of others) { span.append(variation(tree, other, go), " "); fresh = true; }
    at = next;
  }
  span.lastChild.remove();  // the space after the last move
  span.append(")");
  return span;
}

export function showMoveList(list, tree, firstMover, go) {
  number(tree, firstMover);
  const rows = [];
  let row = null, interrupted = false;
  for (let at = tree.root; at.children.length; at = at.children[0]) {
    const [main, ...others] = at.children;
    // a row starts with the first player's turn, or with the game's first move ("1. …" when
    // the second player moved first)
    if (!row || main.number !== row.value) {
      row = Object.assign(document.createElement("li"), { value: main.number });
      rows.push(row);
      if (main.shownMover !== 0) row.append("… ");
    } else if (interrupted) {
      row.append(Object.assign(document.createElement("span"), { className: "resume", textContent: label(main, true) }));
    }
    row.append(button(tree, main, go));
    interrupted = others.length > 0;
    for (const other of others) row.append(variation(tree, other, go));
  }
  list.replaceChildren(...rows);
}
