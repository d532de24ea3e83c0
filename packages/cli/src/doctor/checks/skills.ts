/**
 * `skills-extension`: when a server declares io.modelcontextprotocol/skills (SEP-2640), its
 * settings are an object beside a `resources` capability, `skills/list` answers with valid
 * entries whose URI ends in `<name>/SKILL.md`, `skills/get` echoes a listed entry and answers
 * -32602 for an unknown URI, and every listed file reads back with the digest and size its
 * entry gives (SKILL.md also with the same frontmatter), through `SkillsClient`.
 */
import { SkillsClient } from '@twofold/client/experimental';
import {
  isRecord,
  isSkillName,
  ProtocolError,
  SKILLS_EXTENSION_ID,
  type SkillEntry,
  sameFrontmatter,
  skillNameOf,
} from '@twofold/protocol/experimental';
import { SPEC } from '../spec-refs';
import { listOf, messageOf } from '../util';
import { type CheckDefinition, Findings, notConnected, skip } from './define';

/** How many files the check reads back at most, over all skills. */
const MAX_FILES = 32;
const UNKNOWN_SKILL = 'skill://twofold-doctor-no-such-skill/SKILL.md';

export const skillsExtension: CheckDefinition = {
  id: 'skills-extension',
  title: 'Skills extension',
  spec: SPEC.extensionNegotiation,
  async run(context) {
    const client = context.client;
    if (!client) return notConnected(context);
    const settings = client.serverCapabilities.extensions?.[SKILLS_EXTENSION_ID];
    if (settings === undefined) return skip(`the server does not declare ${SKILLS_EXTENSION_ID}`);
    const findings = new Findings();
    findings.expect(isRecord(settings), 'the extension settings are an object');
    findings.expect(
      client.serverCapabilities.resources !== undefined,
      'the resources capability is declared beside it (skill files are resources)',
    );
    const skills = new SkillsClient(client);
    const options = { timeoutMs: context.timeoutMs };
    let entries: SkillEntry[];
    try {
      entries = await skills.list(options);
    } catch (error) {
      return findings.fail(`skills/list failed: ${messageOf(error)}`).outcome();
    }
    findings.note(`skills/list: ${entries.length} skill(s)`);
    const misnamed = entries.filter((entry) => {
      const name = skillNameOf(entry.uri);
      return name !== entry.frontmatter.name || !isSkillName(name);
    });
    if (misnamed.length > 0) {
      findings.fail(
        `URI not ending in <name>/SKILL.md with a valid name: ${listOf(misnamed.map((e) => e.uri))}`,
      );
    }
    await checkGet(skills, entries[0], findings, options);
    await checkFiles(skills, entries, findings, options);
    return findings.outcome();
  },
};

async function checkGet(
  skills: SkillsClient,
  first: SkillEntry | undefined,
  findings: Findings,
  options: { timeoutMs: number },
): Promise<void> {
  if (first !== undefined) {
    try {
      const got = await skills.get(first.uri, options);
      findings.expect(
        got.uri === first.uri && sameFrontmatter(got.frontmatter, first.frontmatter),
        `skills/get ${first.uri} returns its listed entry`,
      );
    } catch (error) {
      findings.fail(`skills/get ${first.uri} failed: ${messageOf(error)}`);
    }
  }
  try {
    await skills.get(UNKNOWN_SKILL, options);
    findings.fail('skills/get of an unknown URI returned a result instead of -32602');
  } catch (error) {
    findings.expect(
      error instanceof ProtocolError && error.code === -32602,
      `skills/get of an unknown URI: ${messageOf(error)}`,
    );
  }
}

/** Reads back every listed file (up to MAX_FILES) and verifies it against its entry. */
async function checkFiles(
  skills: SkillsClient,
  entries: readonly SkillEntry[],
  findings: Findings,
  options: { timeoutMs: number },
): Promise<void> {
  let read = 0;
  const refused: string[] = [];
  for (const entry of entries) {
    if (entry.resources === 'dynamic' || read >= MAX_FILES) continue;
    for (const file of entry.resources.slice(0, MAX_FILES - read)) {
      read++;
      try {
        if (file.uri === entry.uri) await skills.load(entry, options);
        else await skills.readFile(entry, file.uri, options);
      } catch (error) {
        refused.push(`${file.uri} (${messageOf(error)})`);
      }
    }
  }
  if (refused.length > 0)
    findings.fail(`file(s) that do not match their entry: ${listOf(refused, 3)}`);
  else if (read > 0) findings.note(`${read} file(s) read back with the listed digest and size`);
}
