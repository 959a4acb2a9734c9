// The student's exercise on a typed tree: predict what textbook alpha-beta does (the leaves
// it prunes, the leaves it evaluates in order, the root's value), then check. The answers
// are read from the server's own textbook trace of the tree, never from a key kept here:
// the example trees below are only trees.
const SVG = "http://www.w3.org/2000/svg";
const RADIUS = 14, LEAF = 12, LEVEL = 66, TOP = 26, MIN_SLOT = 28, MAX_SLOT = 60;
const MIN_SCALE = 0.75;  // a wide tree shrinks to fit a phone down to this, then scrolls
const MOST_LEAVES = 81;  // a tree to work by hand: 3^4 leaves is already a long exercise
const TRACE_NODES = 5000;  // the page's largest trace: an exercise tree is far smaller

export const EXAMPLES = [
  { name: "AIMA's figure: three min nodes", tree: [[3, 12, 8], [2, 4, 6], [14, 5, 2]] },
  { name: "three levels: max and min cut-offs", tree: [[[3, 12], [14, 2]], [[4, 6], [8, 5]], [[15, 1], [9, 13]]] },
  { name: "nothing pruned: the worst order", tree: [[1, 2, 3], [4, 5, 6], [7, 8, 9]] },
  { name: "four levels, deep cut-offs: Nimzo (max) v Capa", tree: [[[[5, 6], [7, 4]], [[3, 2], [6, 9]]], [[[8, 1], [4, 3]], [[2, 7], [1, 5]]]] },
];

const $ = (id) => document.getElementById(id);
const letters = (path) => path.map((at) => (at < 26 ? String.fromCharCode(97 + at) : `(${at})`)).join("");
const ordinal = (n) => `${n}${n % 10 === 1 && n % 100 !== 11 ? "st" : n % 10 === 2 && n % 100 !== 12 ? "nd" : n % 10 === 3 && n % 100 !== 13 ? "rd" : "th"}`;
// a trace names a tree's moves by letter (a, b, ...; past z, by index): back to the index
const childIndex = (move) => (/^[a-z]$/.test(move) ? move.charCodeAt(0) - 97 : Number(move));
const sameNumber = (typed, value) => typed !== undefined && Number(typed) === Number(value) && typed.trim() !== "";

function element(name, attributes = {}, parent = null) {
  const node = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, value);
  if (parent) parent.appendChild(node);
  return node;
}

// Every node of a nested-list tree, in order, each with its path of child indices; leaves
// take slots left to right, a parent sits over the middle of its children.
function lay(tree) {
  const nodes = [];
  let slot = 0, deepest = 0;
  const place = (item, path) => {
    const node = { path, key: path.join("."), leaf: !Array.isArray(item), value: item, children: [] };
    nodes.push(node);
    deepest = Math.max(deepest, path.length);
    if (node.leaf) {
      node.slot = slot++;
    } else {
      node.children = item.map((child, at) => place(child, [...path, at]));
      node.slot = (node.children[0].slot + node.children[node.children.length - 1].slot) / 2;
    }
    return node;
  };
  place(tree, []);
  return { nodes, leaves: nodes.filter((node) => node.leaf), deepest };
}

// What the search did, from its trace: the leaves it evaluated (their paths, in order), the
// nodes it entered at all, and the root's value from max's side.
function searched(trace) {
  const path = (index) => {
    const moves = [];
    for (let node = trace.nodes[index]; node.parent !== null; node = trace.nodes[node.parent]) moves.unshift(childIndex(node.move));
    return moves.join(".");
  };
  return {
    evaluated: trace.leaves.map((leaf) => path(leaf.index)),
    entered: new Set(trace.nodes.map((node) => path(node.index))),
    root: trace.nodes[0].minimax_value,
  };
}

export class Exercise {
  constructor({ post }) {
    this.post = post;
    this.start = null;     // the typed tree the exercise is on
    this.generation = 0;   // late answers for an earlier tree are dropped
    this.shape = null;     // the tree laid out
    this.answer = null;    // what the search did, once its trace is in
    this.marked = new Set();
    this.checked = null;   // the leaves a check found wrongly marked or missed
    this.showing = false;  // the answer shown
    $("exercise-example").replaceChildren(
      Object.assign(document.createElement("option"), { value: "", textContent: "your tree (typed above)" }),
      ...EXAMPLES.map((example, at) => Object.assign(document.createElement("option"), { value: String(at), textContent: example.name })),
    );
    $("exercise-example").addEventListener("change", () => this.pick());
    $("exercise-form").addEventListener("submit", (event) => { event.preventDefault(); this.check(); });
    $("exercise-answer").addEventListener("click", () => { this.showing = !this.showing; this.draw(); this.showAnswer(); });
    $("exercise-search").addEventListener("click", () => this.showSearch());
    $("exercise-again").addEventListener("click", () => this.reset());
    $("exercise-tree").addEventListener("click", (event) => this.tap(event.target.closest && event.target.closest("g.leaf")));
    $("exercise-tree").addEventListener("keydown", (event) => {
      if (event.key === "Enter" || event.key === " ") { event.preventDefault(); this.tap(event.target.closest("g.leaf")); }
    });
    window.addEventListener("resize", () => this.draw());
    // the pruning rule the page's checkbox chooses: said here, and the answers traced again by it
    $("prune-equal").addEventListener("change", () => {
      this.sayRule();
      if (this.start === null) return;
      const start = this.start;
      this.start = null;
      this.update("tree", start, []);
    });
    this.sayRule();
  }

  sayRule() {
    $("exercise-rule").textContent = $("prune-equal").checked
      ? "cuts off at the bound too (alpha ≥ beta, as most lectures prune): a max node stops once its value is at or above beta, a min node once at or below alpha"
      : "cuts off only past the bound (as Berkeley's CS188 grades): a max node stops once its value is above beta, a min node once below alpha";
  }

  // The page's position changed: the exercise is on a typed tree's root, and only there.
  async update(game, start, moves) {
    const on = game === "tree" && moves.length === 0;
    $("exercise").hidden = !on;
    if (!on || start === this.start) return;
    this.start = start;
    const mine = ++this.generation;
    this.shape = this.answer = null;
    this.reset();
    $("exercise-status").textContent = "reading the tree…";
    try {
      const position = await this.post("/api/state", { game, start, moves: [] });
      if (mine !== this.generation) return;
      const tree = JSON.parse(position.position);
      const picked = EXAMPLES.findIndex((example) => JSON.stringify(example.tree) === JSON.stringify(tree));
      $("exercise-example").value = picked < 0 ? "" : String(picked);
      // kept only once it passes: a refused tree is never drawn, not even at the next resize
      const shape = lay(tree);
      if (shape.leaves.length > MOST_LEAVES) throw new Error(`this tree has ${shape.leaves.length} leaves: an exercise by hand takes at most ${MOST_LEAVES}`);
      this.shape = shape;
      this.draw();
      const body = { game, start, moves: [], algorithm: "textbook", max_nodes: TRACE_NODES, prune_equal: $("prune-equal").checked };
      const trace = await this.post("/api/trace", body);
      if (mine !== this.generation) return;
      const answer = searched(trace);
      const leafKeys = new Set(this.shape.leaves.map((leaf) => leaf.key));
      if (!answer.evaluated.every((key) => leafKeys.has(key))) throw new Error("the search of this tree did not reach its leaves: type a smaller tree");
      this.answer = answer;
      $("exercise-status").textContent = "";
      $("exercise-check").disabled = $("exercise-answer").disabled = false;
    } catch (error) {
      if (mine !== this.generation) return;
      $("exercise-status").textContent = error.message;
    }
  }

  // An example picked: it becomes the typed tree, as if typed into the position box.
  pick() {
    const example = EXAMPLES[Number($("exercise-example").value)];
    if (!$("exercise-example").value || !example) return;
    $("start").value = JSON.stringify(example.tree);
    $("start-form").requestSubmit();
  }

  reset() {
    this.marked.clear();
    this.checked = null;
    this.showing = false;
    $("exercise-order").value = "";
    $("exercise-root").value = "";
    $("exercise-result").replaceChildren();
    $("exercise-solution").hidden = true;
    $("exercise-check").disabled = $("exercise-answer").disabled = !this.answer;
    this.draw();
  }

  tap(group) {
    if (!group) return;
    const key = group.getAttribute("data-leaf");
    if (this.marked.has(key)) this.marked.delete(key); else this.marked.add(key);
    if (this.checked) this.checked.delete(key);  // a ring says the last check's verdict, no longer true
    this.draw();
  }

  // -- the drawing: max nodes a triangle up, min nodes one down, leaves squares with values --

  draw() {
    const svg = $("exercise-tree");
    svg.replaceChildren();
    if (!this.shape) return;
    const { nodes, leaves, deepest } = this.shape;
    const room = svg.parentElement.clientWidth || 600;
    const slot = Math.max(MIN_SLOT, Math.min(MAX_SLOT, room / leaves.length));
    const at = (node) => ({ x: (node.slot + 0.5) * slot, y: TOP + node.path.length * LEVEL });
    const width = leaves.length * slot, height = TOP + deepest * LEVEL + LEAF + 24;
    const scale = Math.max(MIN_SCALE, Math.min(1, room / width));
    svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
    svg.setAttribute("width", width * scale);
    svg.setAttribute("height", height * scale);
    const answer = this.showing && this.answer;
    const order = answer ? new Map(answer.evaluated.map((key, n) => [key, n + 1])) : new Map();
    const edges = element("g", {}, svg), shapes = element("g", {}, svg);
    for (const node of nodes) {
      const { x, y } = at(node);
      for (const child of node.children) {
        const to = at(child);
        const cut = answer && !answer.entered.has(child.key);
        element("line", { x1: x, y1: y + RADIUS, x2: to.x, y2: to.y - (child.leaf ? LEAF : RADIUS), class: cut ? "edge pruned" : "edge" }, edges);
        // the move's letter just above the node it leads to, as the search tree names it
        element("text", { x: to.x, y: to.y - (child.leaf ? LEAF : RADIUS) - 4, class: "move" }, edges).textContent = letters(child.path.slice(-1));
      }
      if (!node.leaf) {
        const max = node.path.length % 2 === 0;
        const points = max ? `0,${-RADIUS - 3} ${RADIUS + 3},${RADIUS - 2} ${-RADIUS - 3},${RADIUS - 2}` : `0,${RADIUS + 3} ${RADIUS + 3},${-RADIUS + 2} ${-RADIUS - 3},${-RADIUS + 2}`;
        const group = element("g", { class: `inner ${max ? "max" : "min"}`, transform: `translate(${x},${y})`, "data-path": letters(node.path) }, shapes);
        element("polygon", { class: "shape", points }, group);
        // only the root's value is asked for, and it shows only with the answer
        if (!node.path.length) element("text", { y: 6, class: "value" }, group).textContent = answer ? answer.root : "?";
        continue;
      }
      const wrong = this.checked && this.checked.has(node.key);
      const classes = ["leaf", this.marked.has(node.key) ? "marked" : "", wrong ? "wrong" : "", answer && !order.has(node.key) ? "pruned" : ""];
      const group = element("g", {
        class: classes.filter(Boolean).join(" "), transform: `translate(${x},${y})`, "data-leaf": node.key, "data-path": letters(node.path),
        role: "button", tabindex: 0, "aria-pressed": String(this.marked.has(node.key)), "aria-label": `leaf ${letters(node.path)}, ${node.value}`,
      }, shapes);
      element("rect", { class: "shape", x: -LEAF, y: -LEAF, width: 2 * LEAF, height: 2 * LEAF }, group);
      if (this.marked.has(node.key)) element("line", { class: "strike", x1: -LEAF + 1, y1: LEAF - 1, x2: LEAF - 1, y2: -LEAF + 1 }, group);
      element("text", { y: 4, class: "value" }, group).textContent = node.value;
      if (order.has(node.key)) element("text", { y: LEAF + 15, class: "order" }, group).textContent = order.get(node.key);
    }
  }

  // -- grading: each of the three answers right or wrong, and where ----------------------

  check() {
    if (!this.answer || !this.shape) return;
    const { evaluated, root } = this.answer;
    const byKey = new Map(this.shape.leaves.map((leaf) => [leaf.key, leaf]));
    const name = (key) => `${letters(byKey.get(key).path)} (${byKey.get(key).value})`;
    const inOrder = (keys) => this.shape.leaves.map((leaf) => leaf.key).filter((key) => keys.has(key));
    const done = new Set(evaluated);
    const pruned = new Set(this.shape.leaves.map((leaf) => leaf.key).filter((key) => !done.has(key)));
    const wrongly = inOrder(new Set([...this.marked].filter((key) => !pruned.has(key))));
    const missed = inOrder(new Set([...pruned].filter((key) => !this.marked.has(key))));
    this.checked = new Set([...wrongly, ...missed]);
    const rows = [];
    if (!wrongly.length && !missed.length) {
      rows.push(["pruned", true, pruned.size ? `Pruned leaves: right, ${pruned.size} of them.` : "Pruned leaves: right, none is pruned."]);
    } else {
      const parts = [];
      if (wrongly.length) parts.push(`marked but evaluated: ${wrongly.map(name).join(", ")}`);
      if (missed.length) parts.push(`pruned but not marked: ${missed.map(name).join(", ")}`);
      rows.push(["pruned", false, `Pruned leaves: not right; ${parts.join("; ")}.`]);
    }
    const typed = $("exercise-order").value.split(/[\s,;]+/).filter(Boolean);
    const values = evaluated.map((key) => byKey.get(key).value);
    const first = values.findIndex((value, n) => !sameNumber(typed[n], value));
    if (first < 0 && typed.length === values.length) {
      rows.push(["order", true, `Order: right, ${values.length} leaves evaluated.`]);
    } else if (!typed.length) {
      rows.push(["order", false, "Order: not answered; type the leaves' values in the order the search evaluates them."]);
    } else {
      const at = first < 0 ? values.length : first;
      const said = at < typed.length ? `your ${ordinal(at + 1)} leaf, ${typed[at]}, is not the search's` : `yours stops after ${typed.length} leaves, the search goes on`;
      rows.push(["order", false, `Order: not right; it first differs at the ${ordinal(at + 1)} leaf: ${said}.`]);
    }
    const guess = $("exercise-root").value.trim();
    if (guess !== "" && sameNumber(guess, root)) rows.push(["root", true, `Root value: right, ${root}.`]);
    else rows.push(["root", false, guess === "" ? "Root value: not answered." : `Root value: not right (you wrote ${guess}).`]);
    $("exercise-result").replaceChildren(...rows.map(([part, right, text]) => {
      const row = document.createElement("li");
      row.className = `${part} ${right ? "right" : "wrong"}`;
      row.textContent = text;
      return row;
    }));
    this.draw();
  }

  showAnswer() {
    $("exercise-answer").textContent = this.showing ? "Hide the answer" : "Show the answer";
    const box = $("exercise-solution");
    box.hidden = !this.showing || !this.answer;
    if (box.hidden) return;
    const byKey = new Map(this.shape.leaves.map((leaf) => [leaf.key, leaf]));
    const done = new Set(this.answer.evaluated);
    const pruned = this.shape.leaves.filter((leaf) => !done.has(leaf.key));
    const prunedText = pruned.length ? pruned.map((leaf) => `${letters(leaf.path)} (${leaf.value})`).join(", ") : "none";
    box.textContent = `The search evaluates ${this.answer.evaluated.map((key) => byKey.get(key).value).join(" ")} in this order (numbered under the leaves), prunes ${prunedText}, and the root is worth ${this.answer.root}.`;
  }

  // The search itself, step by step: the page's textbook trace of this tree.
  showSearch() {
    $("trace-algorithm").value = "textbook";
    $("trace-algorithm").dispatchEvent(new Event("change"));
    $("trace-depth").value = "";
    $("trace").click();
    $("tree-panel").scrollIntoView({ block: "start" });
  }
}
