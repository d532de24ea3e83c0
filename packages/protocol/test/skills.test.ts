/** The skills helpers both sides share: frontmatter, digests, names, and the wire schemas. */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  isSkillName,
  sameFrontmatter,
  skillDigest,
  skillNameOf,
  skillsWire,
} from '../src/experimental';
import { parseSkillFrontmatter } from '../src/skills';

describe('parseSkillFrontmatter', () => {
  it('reads the YAML object and the body after it, past a BOM and CRLF lines', () => {
    expect(
      parseSkillFrontmatter(
        '\uFEFF---\r\nname: a\r\ndescription: "b: c"\r\nmetadata:\r\n  k: v\r\n---\r\nbody\r\n',
      ),
    ).toEqual({
      ok: true,
      frontmatter: { name: 'a', description: 'b: c', metadata: { k: 'v' } },
      body: 'body\r\n',
    });
  });

  it('keeps frontmatter to JSON types: a date stays a string, a binary tag is refused', () => {
    const dated = parseSkillFrontmatter('---\nname: a\ndescription: b\nupdated: 2026-01-01\n---\n');
    expect(dated.ok && dated.frontmatter.updated).toBe('2026-01-01');
    expect(parseSkillFrontmatter('---\nname: a\ndescription: !!binary aGk=\n---\n').ok).toBe(false);
  });

  it.each([
    ['no block', '# Title\n'],
    ['an unclosed block', '---\nname: a\ndescription: b\n'],
    ['YAML that does not parse', '---\nname: [a\ndescription: b\n---\n'],
    ['no description', '---\nname: a\n---\n'],
    ['a list, not an object', '---\n- a\n---\n'],
  ])('refuses %s', (_what, text) => {
    expect(parseSkillFrontmatter(text).ok).toBe(false);
  });
});

describe('skill helpers', () => {
  it('digests raw UTF-8 bytes as sha256:<lowercase hex>', async () => {
    const text = 'Ünïcode — body\n';
    const expected = `sha256:${createHash('sha256').update(text, 'utf8').digest('hex')}`;
    expect(await skillDigest(text)).toBe(expected);
    expect(await skillDigest(new TextEncoder().encode(text))).toBe(expected);
  });

  it('compares frontmatter field by field, ignoring key order', () => {
    expect(
      sameFrontmatter(
        { name: 'a', description: 'b', m: { x: [1] } },
        { description: 'b', m: { x: [1] }, name: 'a' },
      ),
    ).toBe(true);
    expect(sameFrontmatter({ name: 'a', description: 'b' }, { name: 'a', description: 'c' })).toBe(
      false,
    );
    expect(
      sameFrontmatter({ name: 'a', description: 'b' }, { name: 'a', description: 'b', extra: 1 }),
    ).toBe(false);
  });

  it.each([
    ['pdf-processing', true],
    ['a', true],
    ['x'.repeat(64), true],
    ['x'.repeat(65), false],
    ['Upper', false],
    ['double--hyphen', false],
    ['-leading', false],
    ['trailing-', false],
  ])('isSkillName(%s) is %s', (name, valid) => {
    expect(isSkillName(name)).toBe(valid);
  });

  it('finds the skill name at the end of a SKILL.md URI', () => {
    expect(skillNameOf('skill://acme/docs/pdf/SKILL.md')).toBe('pdf');
    expect(skillNameOf('skill://pdf/SKILL.md')).toBe('pdf');
    expect(skillNameOf('skill://SKILL.md')).toBeUndefined();
    expect(skillNameOf('skill://pdf/README.md')).toBeUndefined();
  });

  it('validates entries: digest format, sizes, resources array or "dynamic"', () => {
    const file = { uri: 'skill://a/SKILL.md', digest: `sha256:${'0'.repeat(64)}`, size: 1 };
    const entry = {
      uri: file.uri,
      frontmatter: { name: 'a', description: 'b' },
      resources: [file],
    };
    expect(skillsWire.SkillEntry.safeParse(entry).success).toBe(true);
    expect(skillsWire.SkillEntry.safeParse({ ...entry, resources: 'dynamic' }).success).toBe(true);
    expect(
      skillsWire.SkillEntry.safeParse({
        ...entry,
        resources: [{ ...file, digest: `sha256:${'A'.repeat(64)}` }],
      }).success,
    ).toBe(false);
    expect(
      skillsWire.SkillEntry.safeParse({ ...entry, resources: [{ ...file, size: -1 }] }).success,
    ).toBe(false);
  });
});
