// Per-request answers of the encoder's tests on strings. A page repeats its labels ("Add to cart" on every
// product, a menu's links twice, a class or section on many elements) and each test is a pure function of the
// string, so each distinct string is tested at most once per request: the answer is exactly the test's.

/** A pure test of a string (its answer depends on the string alone). */
export type StringTest = (s: string) => boolean;

export class LabelMemo {
  private readonly ids = new Map<string, number>([['', 0]]);
  /** Per id: bit t set once tests[t] ran on the string, and its answer. */
  private readonly known: number[] = [0];
  private readonly answers: number[] = [0];

  constructor(private readonly tests: readonly StringTest[]) {
    if (tests.length > 31) throw new Error('LabelMemo holds at most 31 tests');
  }

  /** The string's id: 0 for the empty string, then 1, 2, ... in the order strings are first seen. */
  id(s: string): number {
    let id = this.ids.get(s);
    if (id === undefined) { id = this.known.length; this.ids.set(s, id); this.known.push(0); this.answers.push(0); }
    return id;
  }

  /** tests[t](s) for the string `s` whose id is `id`, run once per string. */
  test(id: number, s: string, t: number): boolean {
    const bit = 1 << t;
    if ((this.known[id] & bit) === 0) {
      this.known[id] |= bit;
      if (this.tests[t](s)) this.answers[id] |= bit;
    }
    return (this.answers[id] & bit) !== 0;
  }

  /** tests[t](s), by the string (its id looked up or given). */
  has(s: string, t: number): boolean {
    return this.test(this.id(s), s, t);
  }
}
