import { afterEach, beforeEach } from 'vitest';
import type { AcpExecutor } from '../acp-executor.js';
import { createTempProject, type TempProject } from './temp-project.js';
import { TestEditor, type TestEditorOptions } from './test-editor.js';

/**
 * What a test of the executor over the protocol holds: a throwaway project, made before the test, and
 * the editors it connects. After the test each editor is closed and every message the agent sent it is
 * checked against the protocol's schemas, then the project is removed.
 */
export class EditorTest {
  #project: TempProject | undefined;
  #editors: TestEditor[] = [];

  /** The running test's project. */
  get project(): TempProject {
    if (!this.#project) throw new Error('The project is made in beforeEach: use it inside a test or hook.');
    return this.#project;
  }

  /** Connects an editor to the executor, as TestEditor.connect does, and ends it after the test. */
  async connect(executor: AcpExecutor, options?: TestEditorOptions): Promise<TestEditor> {
    const editor = await TestEditor.connect(executor, options);
    this.#editors.push(editor);
    return editor;
  }

  /** Makes the project of the test about to run. */
  begin(): void {
    this.#project = createTempProject();
  }

  /** Closes and checks the test's editors, then removes its project, also when a check fails. */
  async end(): Promise<void> {
    try {
      for (const editor of this.#editors.splice(0)) {
        await editor.close();
        editor.check.assertValid();
      }
    } finally {
      this.#project?.remove();
      this.#project = undefined;
    }
  }
}

/** An EditorTest for the calling file (or describe block), begun before each test and ended after it. */
export function useEditorTest(): EditorTest {
  const test = new EditorTest();
  beforeEach(() => test.begin());
  afterEach(() => test.end());
  return test;
}
