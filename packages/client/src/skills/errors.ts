/** The typed failure of a skill file that does not match what its skill entry promised. */
import { LocalError, LocalErrorCode } from '@twofold/protocol/experimental';

/**
 * Why a skill file was refused: its byte length, its SHA-256 digest or (for a SKILL.md) its
 * frontmatter differs from the entry, or it is no file the entry lists.
 *
 * @experimental
 */
export type SkillVerificationFailure = 'size' | 'digest' | 'frontmatter' | 'unlisted';

/**
 * A skill file failed verification (code `SKILL_VERIFICATION_FAILED`); its content was not used.
 *
 * @experimental
 */
export class SkillVerificationError extends LocalError {
  override readonly name = 'SkillVerificationError';
  constructor(
    readonly failure: SkillVerificationFailure,
    readonly uri: string,
    message: string,
    details: Record<string, unknown> = {},
  ) {
    super(LocalErrorCode.SkillVerificationFailed, message, {
      details: { failure, uri, ...details },
    });
  }
}
