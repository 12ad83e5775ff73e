/**
 * Finds import circles among local modules: strongly connected components
 * of the import graph (type-only imports included: a circle of types still
 * ties two modules' meanings together).
 *
 * @module
 */

/** Local module -> the local modules it imports. */
export type ImportGraph = ReadonlyMap<string, readonly string[]>;

/** Modules that import each other in a circle. */
export interface ImportCycle {
  /** Every module of the tangle (a strongly connected component), sorted. */
  members: string[];
  /** One shortest circle through the first member, which closes back on it. */
  path: string[];
}

/**
 * Every tangle of `graph`, sorted so the output is stable. A module
 * importing itself is a circle of one.
 */
export function importCycles(graph: ImportGraph): ImportCycle[] {
  // Tarjan's algorithm, iterative so deep graphs cannot overflow the stack.
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const components: ImportCycle[] = [];
  let next = 0;
  for (const root of [...graph.keys()].sort()) {
    if (index.has(root)) continue;
    const work: [string, number][] = [[root, 0]];
    while (work.length) {
      const top = work[work.length - 1];
      const [node, i] = top;
      if (i === 0) {
        index.set(node, next);
        low.set(node, next++);
        stack.push(node);
        onStack.add(node);
      }
      const deps = graph.get(node) ?? [];
      if (i < deps.length) {
        top[1]++;
        const dep = deps[i];
        if (!index.has(dep)) work.push([dep, 0]);
        else if (onStack.has(dep)) low.set(node, Math.min(low.get(node)!, index.get(dep)!));
        continue;
      }
      work.pop();
      if (work.length) {
        const parent = work[work.length - 1][0];
        low.set(parent, Math.min(low.get(parent)!, low.get(node)!));
      }
      if (low.get(node) === index.get(node)) {
        const component: string[] = [];
        let member: string;
        do {
          member = stack.pop()!;
          onStack.delete(member);
          component.push(member);
        } while (member !== node);
        const selfLoop = (graph.get(node) ?? []).includes(node);
        if (component.length > 1 || selfLoop) {
          components.push({ members: component.sort(), path: pathThrough(graph, component) });
        }
      }
    }
  }
  return components.sort((a, b) => a.members[0].localeCompare(b.members[0]));
}

/** One circle through every module of a strongly connected component, from its smallest name. */
function pathThrough(graph: ImportGraph, component: string[]): string[] {
  const members = new Set(component);
  const start = [...members].sort()[0];
  // Breadth-first from start back to start inside the component: the shortest circle through it.
  const previous = new Map<string, string>();
  const queue = [start];
  while (queue.length) {
    const node = queue.shift()!;
    for (const dep of graph.get(node) ?? []) {
      if (!members.has(dep)) continue;
      if (dep === start) {
        const path = [node];
        while (path[0] !== start) path.unshift(previous.get(path[0])!);
        return path;
      }
      if (!previous.has(dep)) {
        previous.set(dep, node);
        queue.push(dep);
      }
    }
  }
  return [start];
}
