/**
 * The `sep-2640-client-*` scenarios: list the server's skills, and (except for no-prefetch) load
 * the first one the way a host does when a skill is needed. Loading verifies SKILL.md against
 * its entry; a refused skill is logged and left unloaded, so none of its files is read.
 */
import { SkillsClient, SkillVerificationError } from '@twofold/client/experimental';
import { type ScenarioRun, withClient } from '../run';

/** Lists the skills and stops there: nothing asked for a skill, so no file is read. */
export async function skillsListOnly(run: ScenarioRun): Promise<void> {
  await withClient(run, {}, async (client) => {
    const entries = await new SkillsClient(client).list();
    run.log(`skills: ${entries.map((entry) => entry.frontmatter.name).join(', ') || '(none)'}`);
  });
}

/** Lists the skills and loads the first; a skill that fails verification is refused. */
export async function skillsLoadFirst(run: ScenarioRun): Promise<void> {
  await withClient(run, {}, async (client) => {
    const skills = new SkillsClient(client);
    const [entry] = await skills.list();
    if (entry === undefined) {
      run.log('skills: (none)');
      return;
    }
    try {
      const loaded = await skills.load(entry);
      run.log(
        `loaded ${loaded.frontmatter.name}: ${loaded.body.length} characters of instructions`,
      );
    } catch (error) {
      if (!(error instanceof SkillVerificationError)) throw error;
      run.log(`refused ${entry.uri} (${error.failure}): ${error.message}`);
    }
  });
}
