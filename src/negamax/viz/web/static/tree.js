// The search tree: laid out top-down, zoomed and panned with the mouse, the best line
// open and everything else folded, a node's position drawn when it is hovered or selected.
const SVG = "http://www.w3.org/2000/svg";
const GAP_X = 46, GAP_Y = 74, RADIUS = 15, OPEN_ALL_BELOW = 80;

function element(name, attributes = {}, parent = null) {
  const node = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, value);
  if (parent) parent.appendChild(node);
  return node;
}

export class TreeView {
  constructor(svg, info, { preview }) {
    this.svg = svg;
    this.info = info;
    this.preview = preview;  // (moves from the root) => draws that position into an element
    this.view = { x: 0, y: 0, k: 1 };
    this.tree = null;
    this.mode = "negamax";  // or "minimax": max and min nodes, every value from max's side
    this.listen();
  }

  // minimax: values, windows and cut-offs from the root player's (max's) side, as lectures
  // draw them; negamax: each node's value for its own player to move, as the engine works
  setMode(mode) {
    this.mode = mode;
    if (this.tree) { this.render(); if (this.described !== undefined) this.describe(this.nodes[this.described]); }
  }

  get minimax() {
    return this.mode === "minimax" && this.tree !== null && this.nodes.length > 0 && this.nodes[0].minimax_value !== undefined;
  }

  // in the minimax view a value that is only a bound says so, as lectures write it: "≤2" at
  // a min node cut off, "≥5" at a max node
  shownValue(node) {
    if (!this.minimax) return node.value;
    const bound = { lower: "≥", upper: "≤" }[node.minimax_bound] || "";
    return bound + node.minimax_value;
  }

  // a node the stepper has not finished: not reached yet, or being searched
  pending(node) {
    return this.entered.get(node.index) <= this.step ? "being searched: its value is not backed up yet at this step"
      : "not reached yet at this step";
  }

  // whether the search has backed up this node's value by the stepper's step
  known(index) {
    return this.step === null || (this.returned.get(index) ?? Infinity) <= this.step;
  }

  show(tree) {
    this.tree = tree;
    this.nodes = tree.nodes;
    this.steps = tree.steps || [];
    this.step = null;  // the stepper's position in this.steps, or null: the finished search
    this.entered = new Map();
    this.returned = new Map();
    this.steps.forEach((step, at) => (step.kind === "enter" ? this.entered : this.returned).set(step.node, at));
    this.pv = new Set(tree.pv);
    // siblings sit far enough apart for their move labels (SAN's "Nxf7+") never to overlap
    const longest = Math.max(0, ...this.nodes.map((node) => (node.label || node.move || "").length));
    this.gapX = Math.max(GAP_X, 7 * longest + 14);
    this.sizes = new Map();
    for (let index = this.nodes.length - 1; index >= 0; index--) {
      const node = this.nodes[index];
      this.sizes.set(index, 1 + node.children.reduce((sum, child) => sum + this.sizes.get(child), 0));
    }
    const small = this.nodes.length <= OPEN_ALL_BELOW;
    this.open = new Set(this.nodes.filter((node) => node.children.length && (small || this.pv.has(node.index) || node.index === 0)).map((node) => node.index));
    this.selected = null;
    this.render();
    this.centre();
    this.describe(this.nodes[0]);
  }

  // -- layout and drawing ----------------------------------------------------------------

  layout() {
    const places = new Map();
    const prunedPlaces = new Map();  // a cut-off's skipped moves get a slot of their own, right of its children
    let slot = 0, deepest = 0;
    const place = (index, level) => {
      const node = this.nodes[index];
      deepest = Math.max(deepest, level);
      const children = this.open.has(index) ? node.children : [];
      if (!children.length) {
        places.set(index, { x: slot++ * this.gapX, y: level * GAP_Y });
        return;
      }
      for (const child of children) place(child, level + 1);
      const first = places.get(children[0]).x;
      let last = places.get(children[children.length - 1]).x;
      if (node.pruned.length) {
        last = slot++ * this.gapX;
        prunedPlaces.set(index, { x: last, y: (level + 1) * GAP_Y });
      }
      places.set(index, { x: (first + last) / 2, y: level * GAP_Y });
    };
    place(0, 0);
    return { places, prunedPlaces, width: Math.max(1, slot) * this.gapX, height: (deepest + 1) * GAP_Y };
  }

  render() {
    const { places, prunedPlaces, width, height } = this.layout();
    this.extent = { width, height, places };
    const minimax = this.minimax;
    this.svg.replaceChildren();
    this.layer = element("g", { class: "viewport" }, this.svg);
    const edges = element("g", {}, this.layer), nodes = element("g", {}, this.layer);
    for (const [index, at] of places) {
      const node = this.nodes[index];
      if (node.parent !== null && places.has(node.parent)) {
        const from = places.get(node.parent);
        const pv = this.pv.has(index) && this.pv.has(node.parent);
        element("path", { d: `M${from.x} ${from.y + RADIUS}C${from.x} ${from.y + GAP_Y / 2} ${at.x} ${at.y - GAP_Y / 2} ${at.x} ${at.y - RADIUS}`, class: pv ? "edge pv" : "edge" }, edges);
        // the move just above the node it leads to: one label per slot, none on another's
        const label = element("text", { x: at.x, y: at.y - RADIUS - 4, class: "move" }, edges);
        label.textContent = node.label || node.move;
      }
      const end = prunedPlaces.get(index);
      if (end) {
        // the moves a cut-off skipped: a dashed branch to a slot of their own, with how many
        element("path", { d: `M${at.x} ${at.y + RADIUS}C${at.x} ${at.y + GAP_Y / 2} ${end.x} ${end.y - GAP_Y / 2} ${end.x} ${end.y - 8}`, class: "edge pruned", "data-pruned": index }, edges);
        // on two lines, to stay in its slot: "2 leaves" / "pruned", "1 move (2 leaves)" / "pruned"
        const count = element("text", { x: end.x, y: end.y - 2, class: "move pruned-label", "data-pruned": index }, edges);
        const lines = [...(node.pruned_count || `${node.pruned.length}`).split(/ (?=\()/), "pruned"];
        lines.forEach((line, at) => { element("tspan", { x: end.x, dy: at ? 11 : 0 }, count).textContent = line; });
      }
      // only a real cut-off is marked (a node that left a move unsearched), never a leaf
      const leaf = !node.children.length && !node.pruned.length;
      const marks = minimax
        ? [leaf ? "leaf" : node.max ? "max" : "min", node.pruned.length ? "cut" : ""]
        : [leaf ? "" : node.pruned.length ? "lower" : (node.proven || node.bound) === "upper" ? "upper" : "", node.player === 1 ? "second" : ""];
      const classes = ["node", ...marks, this.pv.has(index) ? "pv" : "", node.table ? "table" : "", index === this.selected ? "selected" : ""];
      const group = element("g", { class: classes.join(" "), transform: `translate(${at.x},${at.y})`, "data-index": index, "data-path": this.path(index, true).join(" ") }, nodes);
      if (!minimax) element("circle", { class: "shape", r: RADIUS }, group);
      else if (leaf) element("rect", { class: "shape", x: -RADIUS + 2, y: -RADIUS + 2, width: 2 * RADIUS - 4, height: 2 * RADIUS - 4 }, group);
      else if (node.max) element("polygon", { class: "shape", points: `0,${-RADIUS - 3} ${RADIUS + 3},${RADIUS - 2} ${-RADIUS - 3},${RADIUS - 2}` }, group);
      else element("polygon", { class: "shape", points: `0,${RADIUS + 3} ${RADIUS + 3},${-RADIUS + 2} ${-RADIUS - 3},${-RADIUS + 2}` }, group);
      element("text", { y: minimax && !leaf ? (node.max ? 7 : 1) : 4, class: "value" }, group).textContent = this.shownValue(node);
      if (node.visits !== undefined) element("text", { x: RADIUS + 3, y: 4, class: "visits" }, group).textContent = node.visits.toLocaleString();
      if (node.pruned.length && !end) {
        const cut = element("text", { x: RADIUS + 2, y: -RADIUS + 4, class: "scissors" }, group);
        cut.textContent = `✂${node.pruned.length}`;
      }
      if (node.children.length) {
        const badge = element("text", { y: RADIUS + 13, class: "badge", "data-toggle": index }, group);
        badge.textContent = this.open.has(index) ? "−" : `+${this.sizes.get(index) - 1}`;
      }
      group.addEventListener("mouseenter", () => this.hover(index));
      group.addEventListener("mouseleave", () => this.unhover());
    }
    this.apply();
    this.showStep();
    const legend = document.getElementById("legend");
    if (legend) legend.dataset.keys = this.legendKeys().join(" ");
  }

  // what the legend explains for this tree: its view, and only the marks it can show
  legendKeys() {
    if (this.nodes.some((node) => node.visits !== undefined)) return ["mcts", "pv"];
    const keys = [this.minimax ? "minimax" : "negamax", "alphabeta", "pv"];
    if (this.nodes.some((node) => node.table)) keys.push("table");
    if (this.nodes.some((node) => /^[WL]\d/.test(node.value))) keys.push("games");
    const again = (node) => node.parent !== null && node.player !== null && node.player === this.nodes[node.parent].player;
    if (this.nodes.some(again)) keys.push("again");
    return keys;
  }

  // -- the stepper: the search replayed one step at a time ----------------------------------

  goTo(step) {
    if (!this.steps.length) return;
    this.step = Math.max(0, Math.min(this.steps.length - 1, step));
    const current = this.steps[this.step].node;
    let folded = false;
    for (let node = this.nodes[current]; node.parent !== null; node = this.nodes[node.parent]) {
      if (!this.open.has(node.parent)) { this.open.add(node.parent); folded = true; }
    }
    if (folded) this.render(); else this.showStep();
    this.follow(current);
    this.describe(this.nodes[current]);  // the node panel follows the stepper
  }

  // the finished search: the last step, the root's value backed up
  finish() {
    this.goTo(this.steps.length - 1);
  }

  // Nodes not entered yet are faint, values not backed up yet are hidden, the current node
  // is ringed; the branches a cut-off skips appear with the step that cuts.
  showStep() {
    const stepping = this.step !== null;
    const current = stepping ? this.steps[this.step].node : null;
    for (const group of this.svg.querySelectorAll("g.node")) {
      const index = Number(group.getAttribute("data-index"));
      const entered = !stepping || this.entered.get(index) <= this.step;
      const known = this.known(index);
      group.classList.toggle("future", !entered);
      group.classList.toggle("current", index === current);
      if (this.nodes[index].pruned.length) group.classList.toggle(this.minimax ? "cut" : "lower", !stepping || this.cutBy(index));  // marked once it cuts
      // a cut node's bound is known from the step that cuts, as a lecture writes "≤2" there
      const bounded = known || (this.minimax && this.nodes[index].pruned.length && this.cutBy(index));
      group.querySelector("text.value").textContent = bounded ? this.shownValue(this.nodes[index]) : entered ? "…" : "";
    }
    // the best line is drawn once the root's value is backed up, not before: it is the answer
    this.svg.classList.toggle("undecided", !this.known(0));
    for (const branch of this.svg.querySelectorAll("[data-pruned]")) {
      const index = Number(branch.getAttribute("data-pruned"));
      branch.classList.toggle("future", stepping && !this.cutBy(index));
    }
    if (this.onStep) this.onStep(stepping ? this.steps[this.step] : null, this.step);
  }

  cutBy(index) {
    // whether the cut-off at node ``index`` has happened by the current step
    const at = this.steps.findIndex((step) => step.cut && this.nodes[step.node].parent === index);
    const shown = at >= 0 ? at : this.returned.get(index) ?? Infinity;  // no cut step: once the node is done
    return shown <= this.step;
  }

  follow(index) {
    const at = this.extent.places.get(index);
    if (!at) return;
    const box = this.svg.getBoundingClientRect();
    const x = at.x * this.view.k + this.view.x, y = at.y * this.view.k + this.view.y;
    if (x < 30 || x > box.width - 30 || y < 30 || y > box.height - 30) {
      this.view.x = box.width / 2 - at.x * this.view.k;
      this.view.y = Math.min(30, box.height / 2 - at.y * this.view.k);
      this.apply();
    }
  }

  // -- what a node is -----------------------------------------------------------------------

  // the moves from the root to a node: as the game reads them (to replay), or as players write them
  path(index, written = false) {
    const moves = [];
    for (let node = this.nodes[index]; node.parent !== null; node = this.nodes[node.parent]) moves.unshift(written ? node.label || node.move : node.move);
    return moves;
  }

  hover(index) {
    clearTimeout(this.hovering);
    this.hovering = setTimeout(() => this.describe(this.nodes[index]), 120);
  }

  // the mouse gone: back to the node selected, or the stepper's
  unhover() {
    clearTimeout(this.hovering);
    const back = this.selected ?? (this.step === null ? 0 : this.steps[this.step].node);
    this.hovering = setTimeout(() => this.describe(this.nodes[back]), 120);
  }

  describe(node) {
    this.described = node.index;
    if (node.visits !== undefined) { this.describePlayouts(node); return; }
    if (this.minimax) { this.describeMinimax(node); return; }
    const moves = this.path(node.index, true);
    const value = !this.known(node.index) ? this.pending(node) : {
      exact: `worth exactly ${node.value} to the player to move`,
      lower: `worth at least ${node.value}: a move reached beta, a cut-off, so the opponent will avoid this node and its other moves were not searched`,
      upper: `worth at most ${node.value}: it rests on a bound found below it`,
    }[node.proven || node.bound];
    const lines = [
      `<b>${moves.length ? node.name || moves.join(" ") : "the position searched (the root)"}</b>`,
      node.window ? `window [alpha, beta] = ${node.window}` : "searched without a window (plain negamax)",
      !node.children.length && !node.table ? "a leaf: the end of the game, or the depth searched"
        : node.depth === null ? "searched to the end of the game" : `depth left: ${node.depth}`,
      value,
    ];
    if (node.player !== null && node.player !== undefined) {
      const parent = node.parent === null ? null : this.nodes[node.parent];
      const again = parent && parent.player === node.player ? ", who moves again (the value is not negated)" : "";
      lines.splice(1, 0, `player ${node.player + 1} to move${again}`);
    }
    this.showInfo(node, lines);
  }

  // the lines every view of a searched node ends with, and its position
  showInfo(node, lines) {
    if (node.table) lines.push("answered by the transposition table, without searching a move");
    const cut = node.pruned.length && (this.step === null || this.cutBy(node.index));
    if (cut) lines.push(`pruned (never searched): ${node.pruned.join(" ")}`);
    const plural = (count, noun) => `${count} ${noun}${count === 1 ? "" : "s"}`;
    if (node.children.length && this.known(node.index)) lines.push(`${plural(node.children.length, "move")} searched, ${plural(this.sizes.get(node.index) - 1, "node")} below`);
    this.info.innerHTML = `<p>${lines.join("<br>")}</p><div class="preview"></div>`;
    this.preview(this.path(node.index), this.info.querySelector(".preview"));
  }

  // a node as a lecture reads it: max or min, its value and window from max's side
  describeMinimax(node) {
    const moves = this.path(node.index, true);
    const leaf = !node.children.length && !node.pruned.length;
    const [mover, other] = node.max ? ["max", "min"] : ["min", "max"];
    const cut = node.max
      ? `a cut-off: ${node.minimax_value} is at or above beta, min's best elsewhere, so min avoids this node; its other moves were not searched`
      : `a cut-off: ${node.minimax_value} is at or below alpha, max's best elsewhere, so max avoids this node; its other moves were not searched`;
    const bound = node.minimax_bound || node.bound;  // from max's side, from what was searched below it
    const words = { lower: "at least", upper: "at most" }[bound];
    const value = !this.known(node.index) ? this.pending(node)
      : leaf ? `a leaf worth ${node.minimax_value} to max`
      : node.pruned.length && words ? `worth ${words} ${node.minimax_value}: ${cut}`
      : !words ? `worth exactly ${node.minimax_value}`
      : `worth ${words} ${node.minimax_value}: it rests on a bound found below it (a cut-off there)`;
    const lines = [
      `<b>${moves.length ? node.name || moves.join(" ") : "the root"}</b>`,
      ...(leaf ? [] : [`a ${mover} node: ${mover} moves here`]),
      node.minimax_window ? `alpha, beta (for max) = ${node.minimax_window}` : "searched without a window (plain minimax)",
      value,
    ];
    this.showInfo(node, lines);
  }

  // a node of a Monte Carlo tree: its playouts, and who won them
  describePlayouts(node) {
    const moves = this.path(node.index, true);
    const parent = node.parent === null ? null : this.nodes[node.parent];
    const lines = [`<b>${moves.length ? moves.join(" ") : "the position searched (the root)"}</b>`];
    lines.push(`${node.visits.toLocaleString()} playouts went through it`);
    if (parent && node.win_rate !== null) {
      lines.push(`the player who moved here (player ${parent.player + 1}) won ${(100 * node.win_rate).toFixed(1)}% of them, a draw counting half`);
    }
    if (node.bound === "exact" && node.value) {
      lines.push(parent ? `proven by the solver: worth ${node.value} to the player who moved here` : `proven by the solver: worth ${node.value} to the player to move`);
    }
    if (node.player !== null && node.player !== undefined) {
      const again = parent && parent.player === node.player ? ", who moves again" : "";
      lines.push(`player ${node.player + 1} to move${again}`);
    }
    if (node.children.length && this.known(node.index)) lines.push(`${node.children.length} of its moves shown, the most played`);
    if (this.pv.has(node.index)) lines.push("on the chosen line: at each node, the move played most (or proven best)");
    this.info.innerHTML = `<p>${lines.join("<br>")}</p><div class="preview"></div>`;
    this.preview(this.path(node.index), this.info.querySelector(".preview"));
  }

  // -- zoom and pan -------------------------------------------------------------------------

  apply() {
    if (this.layer) this.layer.setAttribute("transform", `translate(${this.view.x},${this.view.y}) scale(${this.view.k})`);
    // zoomed out (a phone's fitted tree), the labels grow a little to stay readable
    this.svg.style.setProperty("--text-scale", Math.min(1.4, Math.max(1, 0.85 / this.view.k)).toFixed(2));
  }

  zoom(factor, cx, cy) {
    const k = Math.min(4, Math.max(0.02, this.view.k * factor));
    const box = this.svg.getBoundingClientRect();
    cx ??= box.width / 2;
    cy ??= box.height / 2;
    this.view.x = cx - ((cx - this.view.x) * k) / this.view.k;
    this.view.y = cy - ((cy - this.view.y) * k) / this.view.k;
    this.view.k = k;
    this.apply();
  }

  fit() {
    this.svg.style.height = "";
    const box = this.svg.getBoundingClientRect();
    const k = Math.min(1.5, (box.width - 40) / this.extent.width, (box.height - 40) / this.extent.height);
    this.view = { k, x: (box.width - this.extent.width * k) / 2 + (this.gapX / 2) * k, y: 30 };
    // a phone: the box no taller than the fitted tree, no empty screen under it
    if (matchMedia("(max-width: 640px)").matches) this.svg.style.height = `${Math.max(180, Math.ceil(this.extent.height * k + 70))}px`;
    this.apply();
  }

  // The root at the top, the best line below it in the middle of the view; a tree that fits
  // at a readable size is fitted whole (on a phone, nothing cut off at the right)
  centre() {
    const box = this.svg.getBoundingClientRect();
    if (this.extent.width <= box.width - 40 || (box.width - 40) / this.extent.width >= 0.6) { this.fit(); return; }
    const line = [...this.pv].filter((index) => this.extent.places.has(index)).map((index) => this.extent.places.get(index).x);
    const middle = line.length ? (Math.min(...line) + Math.max(...line)) / 2 : this.extent.places.get(0).x;
    this.view = { k: 1, x: box.width / 2 - middle, y: 30 };
    this.apply();
  }

  listen() {
    this.svg.addEventListener("wheel", (event) => {
      event.preventDefault();
      const box = this.svg.getBoundingClientRect();
      this.zoom(event.deltaY < 0 ? 1.15 : 1 / 1.15, event.clientX - box.left, event.clientY - box.top);
    }, { passive: false });
    let pan = null;
    this.svg.addEventListener("pointerdown", (event) => {
      const toggle = event.target.getAttribute && event.target.getAttribute("data-toggle");
      if (toggle !== null && toggle !== undefined) {
        const index = Number(toggle);
        if (this.open.has(index)) this.open.delete(index); else this.open.add(index);
        const before = this.extent.places.get(index);
        this.render();
        const after = this.extent.places.get(index);
        this.view.x += (before.x - after.x) * this.view.k;  // keep the folded node where it was
        this.apply();
        return;
      }
      const group = event.target.closest && event.target.closest("g.node");
      if (group) {
        this.selected = Number(group.getAttribute("data-index"));
        this.svg.querySelectorAll("g.node.selected").forEach((g) => g.classList.remove("selected"));
        group.classList.add("selected");
        this.describe(this.nodes[this.selected]);
        return;
      }
      pan = { x: event.clientX - this.view.x, y: event.clientY - this.view.y };
      this.svg.classList.add("panning");
      this.svg.setPointerCapture(event.pointerId);
    });
    this.svg.addEventListener("pointermove", (event) => {
      if (!pan) return;
      this.view.x = event.clientX - pan.x;
      this.view.y = event.clientY - pan.y;
      this.apply();
    });
    const end = () => { pan = null; this.svg.classList.remove("panning"); };
    this.svg.addEventListener("pointerup", end);
    this.svg.addEventListener("pointercancel", end);
  }
}
