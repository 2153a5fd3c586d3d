import type { SearchBackend, SearchResult } from './tools/index.js';

// A tiny offline corpus standing in for a web search API, so the example runs without keys or network.
// Swap in a real backend (Brave, Tavily, SerpAPI …) by passing another SearchBackend to WebSearchTool.
const corpus: SearchResult[] = [
  {
    title: 'Node.js 24 released',
    url: 'https://nodejs.org/en/blog/release/v24.0.0',
    snippet: 'Node.js 24.0.0 was released on 6 May 2025.',
  },
  {
    title: 'Node.js release schedule',
    url: 'https://nodejs.org/en/about/previous-releases',
    snippet: 'Even-numbered releases become LTS in October.',
  },
  {
    title: 'TypeScript 7 native compiler',
    url: 'https://devblogs.microsoft.com/typescript/',
    snippet: 'The native TypeScript compiler is about ten times faster.',
  },
];

/** Matches every query word against titles and snippets. */
export const offlineSearch: SearchBackend = async (query, limit) => {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  return corpus
    .map((entry) => ({
      entry,
      score: words.filter((word) => `${entry.title} ${entry.snippet}`.toLowerCase().includes(word)).length,
    }))
    .filter(({ score }) => score > 0)
    .sort((a, b) => b.score - a.score)
    .slice(0, limit)
    .map(({ entry }) => entry);
};
