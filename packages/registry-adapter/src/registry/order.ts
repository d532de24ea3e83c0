/**
 * Code-point order, independent of locale. (`<` on strings compares UTF-16 units, which puts a
 * character above U+FFFF before U+E000–U+FFFF.)
 */
export function compareNames(a: string, b: string): number {
  for (let i = 0; i < a.length && i < b.length; ) {
    const x = a.codePointAt(i) as number;
    const y = b.codePointAt(i) as number;
    if (x !== y) return x < y ? -1 : 1;
    i += x > 0xffff ? 2 : 1;
  }
  return a.length < b.length ? -1 : a.length > b.length ? 1 : 0;
}
