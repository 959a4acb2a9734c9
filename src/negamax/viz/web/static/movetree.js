// The game as a tree of moves, as an analysis board keeps it: every move played from a
// position is one of its children, the first child continues the main line and the others
// are variations. The page stands on one node (`current`); its position is the start and the
// moves from the root down to that node.

const node = (move, parent, byEngine = false) => ({ move, parent, byEngine, children: [], shown: null, mover: null, next: null });

export class MoveTree {
  constructor() { this.reset(); }

  reset() {
    this.root = node(null, null);
    this.current = this.root;
  }

  // The nodes from the root (left out) down to `to`.
  path(to = this.current) {
    const nodes = [];
    for (let at = to; at.parent; at = at.parent) nodes.push(at);
    return nodes.reverse();
  }

  moves(to = this.current) { return this.path(to).map((at) => at.move); }

  // Stand on `to`; each node above it remembers the way down, so that "forward" and "end"
  // go on along the line walked, a variation as much as the main line.
  goTo(to) {
    this.current = to;
    for (let at = to; at.parent; at = at.parent) at.parent.next = at;
  }

  // Play `move` where the page stands: the same move as a child already there follows it
  // (nothing is duplicated); another starts a variation. Answers the node and whether it is new.
  play(move, byEngine = false) {
    let child = this.current.children.find((at) => at.move === move);
    const created = !child;
    if (created) {
      child = node(move, this.current, byEngine);
      this.current.children.push(child);
    }
    this.goTo(child);
    return { node: child, created };
  }

  // The child "forward" goes to: the one last walked through, or the main line's.
  following(at = this.current) {
    return at.children.includes(at.next) ? at.next : at.children[0] || null;
  }

  back() { if (this.current.parent) this.current = this.current.parent; }
  forward() { const next = this.following(); if (next) this.goTo(next); }
  toStart() { this.current = this.root; }
  toEnd() { for (let next = this.following(); next; next = this.following()) this.goTo(next); }

  // Whether `at` is on the main line (every node above it the first child).
  isMain(at) {
    for (; at.parent; at = at.parent) if (at.parent.children[0] !== at) return false;
    return true;
  }

  // The variation `at` is in moves one place up among its parent's children (lichess's
  // "promote variation": repeated, it becomes the main line).
  promote(at) {
    for (; at.parent; at = at.parent) {
      const siblings = at.parent.children, index = siblings.indexOf(at);
      if (index > 0) {
        siblings.splice(index, 1);
        siblings.splice(index - 1, 0, at);
        return true;
      }
    }
    return false;
  }

  // The variation `at` starts, from `at` on, is taken out; the page goes back to where it
  // branched if it stood in it.
  remove(at) {
    if (!at.parent) return;
    at.parent.children.splice(at.parent.children.indexOf(at), 1);
    if (this.path().includes(at)) this.current = at.parent;
  }

  // Where a variation of `at` begins: the nearest node on its path that is not its parent's
  // first child (null on the main line).
  branch(at = this.current) {
    for (; at.parent; at = at.parent) if (at.parent.children[0] !== at) return at;
    return null;
  }

  // Every line from the root to a leaf, as moves, the main line first (PGN's order).
  lines() {
    const lines = [], stack = [[this.root, []]];
    while (stack.length) {
      const [at, moves] = stack.pop();
      if (!at.children.length && moves.length) lines.push(moves);
      for (let index = at.children.length - 1; index >= 0; index--) stack.push([at.children[index], [...moves, at.children[index].move]]);
    }
    return lines;
  }

  // Every line as nodes, in the order of `lines()`.
  leaves() {
    const found = [], stack = [this.root];
    while (stack.length) {
      const at = stack.pop();
      if (!at.children.length && at.parent) found.push(at);
      for (let index = at.children.length - 1; index >= 0; index--) stack.push(at.children[index]);
    }
    return found;
  }

  // Lines merged into the tree from the root: shared beginnings become one, the first line
  // read is the main line. The page stays at the root.
  addLines(lines) {
    for (const line of lines) {
      let at = this.root;
      for (const move of line) {
        let child = at.children.find((item) => item.move === move);
        if (!child) at.children.push(child = node(move, at));
        at = child;
      }
    }
  }

  // The tree as the link writes it: moves between commas, each variation in parentheses
  // after the main-line move it replaces, as PGN writes them ("e4,(d4,d5),e5,Nf3").
  write() {
    const written = (from) => {
      const parts = [];
      for (let at = from; at.children.length; at = at.children[0]) {
        parts.push(encodeMove(at.children[0].move));
        for (const other of at.children.slice(1)) parts.push(`(${[encodeMove(other.move), ...written(other)].join(",")})`);
      }
      return parts;
    };
    return written(this.root).join(",");
  }

  // The tree `write` wrote; throws on a text it did not write (unbalanced parentheses).
  read(text) {
    this.reset();
    let parent = this.root, last = null;
    const open = [];
    for (const token of text.match(/[(),]|[^(),]+/g) || []) {
      if (token === ",") continue;
      if (token === "(") {
        if (!last) throw new Error("a variation before any move");
        open.push([parent, last]);
        parent = last.parent;
        last = null;
      } else if (token === ")") {
        if (!open.length) throw new Error("a variation closed that was never opened");
        [parent, last] = open.pop();
      } else {
        const move = decodeURIComponent(token);
        let child = parent.children.find((item) => item.move === move);
        if (!child) parent.children.push(child = node(move, parent));
        last = child;
        parent = child;
      }
    }
    if (open.length) throw new Error("a variation left open");
  }
}

// A move in a link: parentheses and commas written as %28, %29 and %2C, so that they never
// read as the tree's own.
function encodeMove(move) {
  return encodeURIComponent(move).replace(/[()!'*]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`);
}
