import { ApiProblem } from './http';
import { PLAN_FEATURES, type PlanFeature } from './publicTypes';

/** The demo organisation's one verified sender profile (no endpoint lists them). */
export const DEMO_SENDER_PROFILE_ID = '5e0d3c2a-9b1f-4c6e-8a7d-2f4b6c8e0a1d';

/**
 * What an organisation's plan includes and which sender profiles it has verified. Every
 * organisation starts with every plan feature; tests and demos take features away.
 */
export class Organisations {
	private readonly plans = new Map<string, Set<PlanFeature>>();
	private readonly senderProfiles = new Map<string, Set<string>>();

	constructor(private readonly demoOrgId: string) {
		this.reset();
	}

	reset(): void {
		this.plans.clear();
		this.senderProfiles.clear();
		this.senderProfiles.set(this.demoOrgId, new Set([DEMO_SENDER_PROFILE_ID]));
	}

	features(orgId: string): PlanFeature[] {
		return [...(this.plans.get(orgId) ?? PLAN_FEATURES)];
	}

	setFeatures(orgId: string, features: string[]): PlanFeature[] {
		const unknown = features.find((f) => !(PLAN_FEATURES as readonly string[]).includes(f));
		if (unknown !== undefined)
			throw new Error(`Unknown plan feature "${unknown}"; known: ${PLAN_FEATURES.join(', ')}`);
		this.plans.set(orgId, new Set(features as PlanFeature[]));
		return this.features(orgId);
	}

	/** 403 naming the first feature the request uses that the plan lacks. */
	requireFeatures(orgId: string, used: PlanFeature[]): void {
		const plan = this.plans.get(orgId);
		const missing = plan && used.find((feature) => !plan.has(feature));
		const message = `Your AirSign plan does not include ${missing}`;
		if (missing)
			throw new ApiProblem(403, 'PLAN_FEATURE_UNAVAILABLE', message, undefined, {
				feature: missing,
			});
	}

	hasSenderProfile(orgId: string, profileId: string): boolean {
		return this.senderProfiles.get(orgId)?.has(profileId.toLowerCase()) ?? false;
	}
}
