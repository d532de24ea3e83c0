/**
 * The skills the conformance suite's `sep-2640-skills-*` scenarios discover: a SKILL.md with
 * frontmatter beside a supporting file in a subdirectory (so directory reads have a child
 * directory to descend into), for a skill at the root and for one grouped under a path.
 */
import type { McpServer } from '@twofold/server/experimental';
import { defineSkill } from '@twofold/server/skills';

const PDF_SKILL = `---
name: pdf-processing
description: Extract text from PDF files and fill PDF forms
license: MIT
metadata:
  author: twofold
---

# PDF processing

Extract the text of a page first; to fill a form, follow references/FORMS.md.
`;

const PDF_FORMS = `# Filling forms

List the form's fields, then write each value into its field.
`;

const REVIEW_SKILL = `---
name: code-review
description: Review a change for correctness, tests and naming
---

# Code review

Read the tests first (checklists/TESTS.md), then the code they cover.
`;

const REVIEW_TESTS = `# Tests

Each change comes with a test that fails without it.
`;

export function registerSkills(server: McpServer): void {
  server.registerSkill(
    defineSkill({ skillMd: PDF_SKILL, files: { 'references/FORMS.md': PDF_FORMS } }),
  );
  server.registerSkill(
    defineSkill({
      skillMd: REVIEW_SKILL,
      files: { 'checklists/TESTS.md': REVIEW_TESTS },
      path: 'engineering',
    }),
  );
}
