import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Lru } from '../../src/project/lru';

describe('Lru', () => {
  it('evicts the least recently used entry past the count', () => {
    const evicted: string[] = [];
    const lru = new Lru<string, number>(2, { onEvict: (k) => evicted.push(k) });
    lru.set('a', 1);
    lru.set('b', 2);
    assert.equal(lru.get('a'), 1);
    lru.set('c', 3);
    assert.deepEqual(evicted, ['b']);
    assert.deepEqual([...lru.keys()], ['a', 'c']);
  });

  it('evicts by weight, but keeps a lone entry heavier than the limit', () => {
    const lru = new Lru<string, string>(10, { maxWeight: 5, weigh: (v) => v.length });
    lru.set('a', 'xxx');
    lru.set('b', 'yyy');
    assert.deepEqual([...lru.keys()], ['b']);
    lru.set('c', 'zzzzzzzz');
    assert.deepEqual([...lru.keys()], ['c']);
    assert.equal(lru.weight, 8);
  });

  it('replacing or deleting an entry is no eviction', () => {
    const evicted: string[] = [];
    const lru = new Lru<string, number>(2, { onEvict: (k) => evicted.push(k) });
    lru.set('a', 1);
    lru.set('a', 2);
    assert.equal(lru.delete('a'), true);
    assert.equal(lru.delete('a'), false);
    assert.deepEqual(evicted, []);
    assert.equal(lru.size, 0);
  });
});
