import type { SandboxConfig, SandboxOptions } from './types';

export const DEFAULT_CONFIG: SandboxConfig = {
	tokenTtlSeconds: 3600,
	timestampPrecision: 'ms',
	updatedAfterInclusive: false,
	tieOrder: 'id',
	tieSeed: 1,
	rateLimitPerHour: 60,
	publicRateLimitPerHour: 600,
	maxFileBytes: 7 * 1024 * 1024,
	burstLimit: 0,
	burstWindowSeconds: 2,
};

const CHECKS: { [K in keyof SandboxConfig]: (value: unknown) => boolean } = {
	tokenTtlSeconds: (v) => typeof v === 'number' && v >= 0,
	timestampPrecision: (v) => v === 'ms' || v === 's',
	updatedAfterInclusive: (v) => typeof v === 'boolean',
	tieOrder: (v) => v === 'id' || v === 'random',
	tieSeed: (v) => typeof v === 'number' && Number.isInteger(v) && v >= 0 && v < 2 ** 32,
	rateLimitPerHour: (v) => typeof v === 'number' && Number.isInteger(v) && v >= 0,
	publicRateLimitPerHour: (v) => typeof v === 'number' && Number.isInteger(v) && v >= 0,
	maxFileBytes: (v) => typeof v === 'number' && Number.isInteger(v) && v >= 0,
	burstLimit: (v) => typeof v === 'number' && Number.isInteger(v) && v >= 0,
	burstWindowSeconds: (v) => typeof v === 'number' && Number.isInteger(v) && v >= 1,
};

/** Applies the config keys of `patch` (other keys are ignored) after checking all of them. */
export function applyConfig(
	config: SandboxConfig,
	patch: Partial<SandboxConfig> | SandboxOptions,
): void {
	const entries = Object.entries(patch).filter(
		([key, value]) => key in CHECKS && value !== undefined,
	);
	for (const [key, value] of entries) {
		if (!CHECKS[key as keyof SandboxConfig](value))
			throw new Error(`Invalid value for ${key}: ${JSON.stringify(value)}`);
	}
	Object.assign(config, Object.fromEntries(entries));
}
