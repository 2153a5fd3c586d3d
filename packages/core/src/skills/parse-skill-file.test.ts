import { describe, expect, it } from 'vitest';
import { parseSkillFile } from './parse-skill-file.js';

describe('parseSkillFile', () => {
  it('reads the name, the description and the instructions after the front matter', () => {
    const file = '---\nname: pdf\ndescription: Extract text from PDF files. # a YAML comment\n---\n\n# PDF\nRun it.\n';
    expect(parseSkillFile(file)).toEqual({
      name: 'pdf',
      description: 'Extract text from PDF files.',
      instructions: '# PDF\nRun it.',
    });
  });

  it('takes quoted values, block scalars and a nested metadata map, as other agents write them', () => {
    const file = [
      '---',
      "name: 'release-notes'",
      'description: >',
      '  Write release notes',
      '  from the changelog.',
      'license: "Apache-2.0"',
      'metadata:',
      '  author: someone',
      '  version: "1.0"',
      'allowed-tools: Bash(git log:*) Read',
      '---',
      'Body',
    ].join('\r\n');
    expect(parseSkillFile(file)).toEqual({
      name: 'release-notes',
      description: 'Write release notes from the changelog.',
      instructions: 'Body',
    });
  });

  it.each([
    ['# No front matter\n', 'has no front matter: it must start with a "---" line'],
    ['---\nname: pdf\ndescription: x\n', 'has no end to its front matter'],
    ['---\nname: pdf\n---\nBody', 'has no description in its front matter: add "description: ..."'],
    ['---\ndescription: x\n---\nBody', 'has no name in its front matter'],
    ['---\nname: My Skill\ndescription: x\n---\n', 'has the name "My Skill": a name is lowercase letters'],
    [
      '---\nname: pdf\ndescription: "open\n---\n',
      'has a double-quoted value that does not end where it should on line 3',
    ],
    ['---\nname: pdf\nname: pdf\ndescription: x\n---\n', 'has "name" twice, on line 3'],
    ['---\nname pdf\ndescription: x\n---\n', 'has a line that is not "key: value" on line 2'],
    ['---\nname: pdf\ndescription: {a: 1}\n---\n', 'has a value this reader does not take on line 3'],
  ])('refuses %j and says what is wrong', (file, message) => {
    expect(() => parseSkillFile(file)).toThrow(message);
  });
});
