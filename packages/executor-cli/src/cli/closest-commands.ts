/**
 * The command names a mistyped word is closest to, as commander would suggest them for an unknown command
 * (commander does not export its suggestSimilar, and never calls it for a program that has an action of
 * its own): the fewest edits (insert, delete, substitute, swap two neighbours), at most 3, keeping more
 * than 40% of the longer word. Several names at the same distance all come back, sorted; none when no
 * name is close.
 */
export function closestCommands(word: string, names: readonly string[]): string[] {
  let best = MAX_DISTANCE;
  let closest: string[] = [];
  for (const name of names) {
    if (name.length <= 1) continue;
    const distance = editDistance(word, name);
    const length = Math.max(word.length, name.length);
    if ((length - distance) / length <= MIN_SIMILARITY) continue;
    if (distance < best) {
      best = distance;
      closest = [name];
    } else if (distance === best) {
      closest.push(name);
    }
  }
  return closest.sort((a, b) => a.localeCompare(b));
}

const MAX_DISTANCE = 3;
const MIN_SIMILARITY = 0.4;

// The optimal string alignment distance (Damerau–Levenshtein where no substring is edited twice).
function editDistance(a: string, b: string): number {
  if (Math.abs(a.length - b.length) > MAX_DISTANCE) return Math.max(a.length, b.length);
  const rows = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  const at = (i: number, j: number) => rows[i]?.[j] ?? 0;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let distance = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        distance = Math.min(distance, at(i - 2, j - 2) + 1);
      const row = rows[i];
      if (row) row[j] = distance;
    }
  }
  return at(a.length, b.length);
}
