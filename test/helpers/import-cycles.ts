// Import cycles of a module graph (file -> the files it imports), each as `a -> b -> a`: for the import tests.

export function importCycles(graph: ReadonlyMap<string, readonly string[]>): string[] {
  const state = new Map<string, 1 | 2>(); // 1: on the stack, 2: done
  const cycles: string[] = [];
  const stack: string[] = [];
  const visit = (f: string): void => {
    state.set(f, 1);
    stack.push(f);
    for (const d of graph.get(f) ?? []) {
      if (state.get(d) === 1) cycles.push([...stack.slice(stack.indexOf(d)), d].join(' -> '));
      else if (!state.has(d)) visit(d);
    }
    stack.pop();
    state.set(f, 2);
  };
  for (const f of graph.keys()) if (!state.has(f)) visit(f);
  return cycles;
}
