import type { Tool, ToolContext } from '@agentloop/core';
import { z } from 'zod';

const parameters = z.object({
  query: z.string().min(1).describe('The search query'),
  limit: z.number().int().min(1).max(10).default(3).describe('How many results to return'),
});

/** One search hit. */
export interface SearchResult {
  title: string;
  url: string;
  snippet: string;
}

/** A search backend: a web search API in a real app. */
export type SearchBackend = (query: string, limit: number, signal: AbortSignal) => Promise<SearchResult[]>;

/** The seed's WebSearchTool shape: a class that implements Tool, with its backend injected. */
export class WebSearchTool implements Tool<z.infer<typeof parameters>, SearchResult[]> {
  readonly name = 'web_search';
  readonly description = 'Search the web for information. Returns titles, URLs and snippets.';
  readonly parameters = parameters;

  constructor(private readonly search: SearchBackend) {}

  async execute(args: z.infer<typeof parameters>, context: ToolContext): Promise<SearchResult[]> {
    context.reportProgress({ message: `searching for "${args.query}"` });
    return this.search(args.query, args.limit, context.signal);
  }
}
