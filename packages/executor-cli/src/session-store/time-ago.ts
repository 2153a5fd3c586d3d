/** How long ago `date` was, in a word or two: `just now`, `5 min ago`, `3 h ago`, `2 days ago`, or the day. */
export function timeAgo(date: Date, now: Date = new Date()): string {
  const seconds = Math.max(0, (now.getTime() - date.getTime()) / 1000);
  if (seconds < 60) return 'just now';
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ago`;
  if (seconds < 86_400) return `${Math.floor(seconds / 3600)} h ago`;
  const days = Math.floor(seconds / 86_400);
  if (days < 30) return days === 1 ? 'yesterday' : `${days} days ago`;
  return date.toISOString().slice(0, 10);
}
