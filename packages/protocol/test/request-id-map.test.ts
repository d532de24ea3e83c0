import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type RequestId, RequestIdMap, shallowCopy, withServerInfo } from '../src/experimental';

const requestId = fc.oneof(
  fc.integer({ min: -1000, max: 1000 }),
  fc.integer({ min: -1000, max: 1000 }).map(String),
  fc.constantFrom('', 's', 's1', '__proto__', 'constructor', 'toString'),
);

type Op =
  | { kind: 'set'; id: RequestId; value: number }
  | { kind: 'delete'; id: RequestId }
  | { kind: 'clear' };

const op: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({ kind: fc.constant('set' as const), id: requestId, value: fc.integer() }),
  },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('delete' as const), id: requestId }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('clear' as const) }) },
);

describe('RequestIdMap', () => {
  it('behaves as a Map of request ids, whatever is set and deleted', () => {
    fc.assert(
      fc.property(
        fc.array(op, { maxLength: 60 }),
        fc.array(requestId, { maxLength: 10 }),
        (ops, probes) => {
          const table = new RequestIdMap<number>();
          const model = new Map<RequestId, number>();
          for (const o of ops) {
            if (o.kind === 'set') {
              table.set(o.id, o.value);
              model.set(o.id, o.value);
            } else if (o.kind === 'delete') {
              expect(table.delete(o.id)).toBe(model.delete(o.id));
            } else {
              table.clear();
              model.clear();
            }
            expect(table.size).toBe(model.size);
          }
          for (const id of [...probes, ...model.keys()]) {
            expect(table.has(id)).toBe(model.has(id));
            expect(table.get(id)).toBe(model.get(id));
          }
          const byId = (a: [RequestId, number], b: [RequestId, number]) =>
            `${typeof a[0]}${a[0]}` < `${typeof b[0]}${b[0]}` ? -1 : 1;
          expect(table.entries().sort(byId)).toEqual([...model.entries()].sort(byId));
          expect(table.values().sort()).toEqual([...model.values()].sort());
        },
      ),
    );
  });

  it('keeps the number 1 and the string "1" apart, as JSON-RPC does', () => {
    const table = new RequestIdMap<string>();
    table.set(1, 'number');
    table.set('1', 'string');
    expect([table.get(1), table.get('1'), table.size]).toEqual(['number', 'string', 2]);
    expect(table.entries()).toContainEqual([1, 'number']);
    expect(table.entries()).toContainEqual(['1', 'string']);
  });
});

describe('copies that are then extended', () => {
  it('shallowCopy copies own enumerable properties and leaves the source alone', () => {
    const source = { a: 1, nested: { b: 2 } };
    const copy = shallowCopy(source);
    (copy as Record<string, unknown>).extra = true;
    expect(copy).toEqual({ a: 1, nested: { b: 2 }, extra: true });
    expect(copy.nested).toBe(source.nested);
    expect(source).toEqual({ a: 1, nested: { b: 2 } });
  });

  it('withServerInfo keeps the key order and the caller _meta, and copies both', () => {
    const result = { _meta: { trace: 't' }, content: [] as unknown[] };
    const info = { name: 'server', version: '1.0.0' };
    const complete = withServerInfo(result, info);
    expect(JSON.stringify(complete)).toBe(
      JSON.stringify({
        _meta: { trace: 't', 'io.modelcontextprotocol/serverInfo': info },
        content: [],
      }),
    );
    expect(result._meta).toEqual({ trace: 't' });
  });
});
