/**
 * What a connect attempt will do before it touches the server: probe (`auto`), or go straight to
 * one era because the caller pinned it or a prior verdict for the same server says so.
 */
import {
  type DiscoverResult,
  isLegacyVersion,
  isModernVersion,
  LocalError,
  LocalErrorCode,
  type ModernVersion,
} from '@twofold/protocol/experimental';
import type { EraChoice, EraVerdict } from '../types';

/** The decided course of a connect attempt. */
export type EraPlan =
  | { mode: 'auto'; modernVersion: string }
  | {
      mode: 'modern';
      modernVersion: string;
      /** The version is pinned: -32022 is not renegotiated. */
      pinned: boolean;
      /** From a prior verdict: no `server/discover` needed. */
      discover?: DiscoverResult | undefined;
    }
  | {
      mode: 'legacy';
      legacyVersion?: string | undefined;
      pinned: boolean;
      /** The era was pinned: a modern server is an error, not a reason to switch. */
      eraPinned: boolean;
      /** HTTP: a prior verdict found the 2024-11-05 HTTP+SSE transport. */
      sseOnly: boolean;
    };

/** What the plan is made from. */
export interface PlanInput {
  serverKey: string;
  era: EraChoice;
  protocolVersion?: string | undefined;
  verdict?: EraVerdict | undefined;
  modernVersions: readonly ModernVersion[];
}

/**
 * A pinned version decides the era (it wins over `era`); else a prior verdict for this server
 * (when `era` agrees); else `era` itself. An unknown pinned version fails at once.
 */
export function resolvePlan(input: PlanInput): EraPlan {
  const { protocolVersion: pin, modernVersions } = input;
  const newest = modernVersions[0];
  if (newest === undefined) throw new RangeError('resolvePlan: no modern version offered');
  if (pin !== undefined) {
    if (modernVersions.includes(pin as ModernVersion)) {
      return { mode: 'modern', modernVersion: pin, pinned: true };
    }
    if (isLegacyVersion(pin)) {
      return { mode: 'legacy', legacyVersion: pin, pinned: true, eraPinned: true, sseOnly: false };
    }
    throw new LocalError(
      LocalErrorCode.NoMutualVersion,
      `The pinned protocol version ${JSON.stringify(pin)} is not one this client speaks`,
      { details: { protocolVersion: pin } },
    );
  }
  const verdict = usableVerdict(input);
  if (verdict?.era === 'modern') {
    return {
      mode: 'modern',
      modernVersion: verdict.protocolVersion,
      pinned: false,
      discover: verdict.discover,
    };
  }
  if (verdict?.era === 'legacy') {
    return {
      mode: 'legacy',
      legacyVersion: verdict.protocolVersion,
      pinned: false,
      eraPinned: input.era === 'legacy',
      sseOnly: verdict.transport === 'http+sse',
    };
  }
  if (input.era === 'modern') return { mode: 'modern', modernVersion: newest, pinned: false };
  if (input.era === 'legacy') {
    return { mode: 'legacy', pinned: false, eraPinned: true, sseOnly: false };
  }
  return { mode: 'auto', modernVersion: newest };
}

/**
 * A verdict for this server, in an era `era` allows, naming a version we speak, and resting on
 * an answer (one reached by silence may only mean the server was slow that time).
 */
function usableVerdict(input: PlanInput): EraVerdict | undefined {
  const { verdict } = input;
  if (verdict === undefined || verdict.serverKey !== input.serverKey) return undefined;
  if (verdict.reachedBy === 'silence') return undefined;
  if (input.era !== 'auto' && input.era !== verdict.era) return undefined;
  const known =
    verdict.era === 'modern'
      ? isModernVersion(verdict.protocolVersion)
      : isLegacyVersion(verdict.protocolVersion);
  return known ? verdict : undefined;
}
