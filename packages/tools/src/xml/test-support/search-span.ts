// A parser's cost is set by how much text its searches read. Timing it makes a flaky test; counting
// the characters that String's searches may read while `action` runs makes a deterministic one. A
// search that runs on to the end of the text, where only a small window was meant, shows up at once.

type Search = (this: string, search: string, position?: number) => number;

/** Runs `action` and returns how many characters `indexOf`, `lastIndexOf` and `includes` read meanwhile. */
export function measureSearchSpan(action: () => void): number {
  const prototype = String.prototype;
  const { indexOf, lastIndexOf, includes } = prototype;
  let span = 0;
  const forward: Search = function (search, position = 0) {
    const found = indexOf.call(this, search, position);
    span += (found === -1 ? this.length : found + search.length) - Math.max(0, Math.min(position, this.length));
    return found;
  };
  const backward: Search = function (search, position = Number.POSITIVE_INFINITY) {
    const found = lastIndexOf.call(this, search, position);
    span += Math.max(0, Math.min(position, this.length)) + search.length - (found === -1 ? 0 : found);
    return found;
  };
  prototype.indexOf = forward;
  prototype.lastIndexOf = backward;
  prototype.includes = function (this: string, search: string, position?: number) {
    return forward.call(this, search, position) !== -1;
  };
  try {
    action();
  } finally {
    prototype.indexOf = indexOf;
    prototype.lastIndexOf = lastIndexOf;
    prototype.includes = includes;
  }
  return span;
}
