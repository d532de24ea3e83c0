/**
 * Not a public entry (no `exports` path leads here): what the framework entries (`./ai-sdk`,
 * `./openai`, `./langchain`) share. As a hub of its own it exists once: in CommonJS, which has
 * no chunks, each framework entry would otherwise carry its own `ToolInputRequiredError`, and
 * `instanceof` against one entry's class would fail for errors another entry threw.
 */
export * from './adapters/shared/errors';
