import { text } from 'node:stream/consumers';
import { getHeapSnapshot } from 'node:v8';

/** Holds the arrays to measure, so that the heap snapshot can find them by this class's name. */
class ArrayCapacityProbe {
  constructor(
    readonly arrays: readonly (readonly unknown[])[],
    /** One and two entries, made exactly: they give the size of the header and of a slot. */
    readonly references: readonly (readonly unknown[])[],
  ) {}
}

interface HeapSnapshot {
  snapshot: { meta: { node_fields: string[]; edge_fields: string[]; edge_types: [string[]] } };
  nodes: number[];
  edges: number[];
  strings: string[];
}

/**
 * How many entries each array has room for, read from a heap snapshot (JavaScript cannot see it): an array
 * grown by push keeps room to grow, one made by map, slice or concat holds exactly its entries.
 */
export async function arrayCapacities(arrays: readonly (readonly unknown[])[]): Promise<number[]> {
  const probe = new ArrayCapacityProbe(arrays, [[{}], [{}, {}]]);
  const snapshot = JSON.parse(await text(getHeapSnapshot())) as HeapSnapshot;
  const { node_fields: nodeFields, edge_fields: edgeFields, edge_types: edgeTypes } = snapshot.snapshot.meta;
  const { nodes, edges, strings } = snapshot;
  const [nameField, sizeField, edgeCountField] = ['name', 'self_size', 'edge_count'].map((field) =>
    nodeFields.indexOf(field),
  ) as [number, number, number];
  const [typeField, nameOrIndexField, toField] = ['type', 'name_or_index', 'to_node'].map((field) =>
    edgeFields.indexOf(field),
  ) as [number, number, number];
  const firstEdge: number[] = [];
  for (let node = 0, edge = 0; node < nodes.length; node += nodeFields.length) {
    firstEdge[node] = edge;
    edge += (nodes[node + edgeCountField] as number) * edgeFields.length;
  }
  /** The node an edge of `node` leads to, found by the edge's type and name (or index). */
  const follow = (node: number, type: string, name: string | number): number => {
    const end = (firstEdge[node] as number) + (nodes[node + edgeCountField] as number) * edgeFields.length;
    for (let edge = firstEdge[node] as number; edge < end; edge += edgeFields.length) {
      const edgeType = edgeTypes[0][edges[edge + typeField] as number];
      const nameOrIndex = edges[edge + nameOrIndexField] as number;
      const edgeName = edgeType === 'element' || edgeType === 'hidden' ? nameOrIndex : strings[nameOrIndex];
      if (edgeType === type && edgeName === name) return edges[edge + toField] as number;
    }
    throw new Error(`No ${type} edge ${name} in the heap snapshot`);
  };
  let probeNode = -1;
  for (let node = 0; node < nodes.length && probeNode < 0; node += nodeFields.length)
    if (strings[nodes[node + nameField] as number] === ArrayCapacityProbe.name) probeNode = node;
  if (probeNode < 0) throw new Error('The heap snapshot has no ArrayCapacityProbe');
  const elementBytes = (list: string, count: number): number[] => {
    // An array's entries are element edges of the array; its backing store is the `elements` node.
    const listNode = follow(probeNode, 'property', list);
    return Array.from(
      { length: count },
      (_, index) => nodes[follow(follow(listNode, 'element', index), 'internal', 'elements') + sizeField] as number,
    );
  };
  const [one, two] = elementBytes('references', 2) as [number, number];
  const slot = two - one;
  const header = one - slot;
  const capacities = elementBytes('arrays', arrays.length).map((bytes) => (bytes - header) / slot);
  // Keeps the probe alive until the snapshot was read.
  return probe.arrays.length === capacities.length ? capacities : [];
}
