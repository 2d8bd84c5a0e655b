import { UnderChanges } from '../../src/data/remembered-totals';

// The bounded store of remembered totals and page starts (src/data/remembered-totals.ts): at most
// its limit of values, the one set longest ago going first. A value it forgot is read again by
// the statement (the lists' same-answer tests cover that path: nothing remembered).

it('keeps at most its limit, forgetting the value set longest ago', () => {
  const s = new UnderChanges<number>(3);
  for (const k of ['a', 'b', 'c', 'd']) s.set(k, '7', k.charCodeAt(0));
  expect(s.get('a')).toBeUndefined();
  expect(['b', 'c', 'd'].map((k) => s.get(k)?.value)).toEqual([98, 99, 100]);
});

it('setting a value again makes it the newest; reading it does not', () => {
  const s = new UnderChanges<number>(2);
  s.set('a', '1', 1);
  s.set('b', '1', 2);
  s.set('a', '2', 3);
  s.get('b');
  s.set('c', '2', 4);
  expect(s.get('b')).toBeUndefined();
  expect(s.get('a')).toEqual({ changes: '2', value: 3 });
  expect(s.get('c')).toEqual({ changes: '2', value: 4 });
});

it('remembers nothing read without a change count', () => {
  const s = new UnderChanges<number>(2);
  s.set('a', '1', 1);
  s.set('a', null, 2);
  expect(s.get('a')).toEqual({ changes: '1', value: 1 });
  s.clear();
  expect(s.get('a')).toBeUndefined();
});
