import { DAY_MS, type Store } from './store';
import type { CreateSessionInput } from './types';

const HOUR_MS = 60 * 60 * 1000;

/**
 * A dozen sessions in every state for the demo organisation, dated relative to the
 * sandbox clock so "recent" stays recent, plus two for the other organisation so
 * isolation is visible in a demo.
 */
export function seedDemoData(
	store: Store,
	demoOrgId: string,
	otherOrgId: string,
	now: number,
): void {
	const ago = (ms: number) => now - ms;
	const jane = { name: 'Jane Citizen', email: 'jane.citizen@example.com' };
	const raj = { name: 'Raj Patel', email: 'raj.patel@example.com' };
	const mei = { name: 'Mei Chen', email: 'mei.chen@example.com' };
	const tom = { name: 'Tom Nguyen', email: 'tom.nguyen@example.com' };

	const demo: CreateSessionInput[] = [
		{
			name: 'Employment contract – Jane Citizen',
			status: 'draft',
			recipients: [jane],
			expiryDays: 14,
			createdAt: ago(2 * HOUR_MS),
		},
		{
			name: 'NDA – Acme Pty Ltd',
			status: 'draft',
			recipients: [raj, mei],
			createdAt: ago(5 * HOUR_MS),
		},
		{
			name: 'Lease renewal – 12 George St (unfinished)',
			status: 'draft',
			recipients: [{ name: 'Tom Nguyen' }],
			createdAt: ago(DAY_MS),
		},
		{
			name: 'Board resolution (no recipients yet)',
			status: 'draft',
			recipients: [],
			createdAt: ago(DAY_MS + HOUR_MS),
		},
		{
			name: 'Self-signed declaration',
			status: 'draft',
			recipients: [jane],
			selfSignOnly: true,
			createdAt: ago(2 * DAY_MS),
		},
		{
			name: 'Contractor agreement – Raj Patel',
			status: 'pending',
			recipients: [raj],
			expiryDays: 7,
			createdAt: ago(3 * DAY_MS),
			updatedAt: ago(3 * DAY_MS - HOUR_MS),
		},
		{
			name: 'Supplier terms – Mei Chen',
			status: 'pending',
			recipients: [mei, tom],
			createdAt: ago(4 * DAY_MS),
			updatedAt: ago(4 * DAY_MS - HOUR_MS),
		},
		{
			name: 'Partnership deed',
			status: 'inProgress',
			recipients: [raj, jane, mei],
			createdAt: ago(6 * DAY_MS),
			updatedAt: ago(HOUR_MS),
		},
		{
			name: 'Offer letter – Tom Nguyen',
			status: 'completed',
			recipients: [tom],
			createdAt: ago(10 * DAY_MS),
			updatedAt: ago(8 * DAY_MS),
		},
		{
			name: 'Consent form – Jane Citizen',
			status: 'completed',
			recipients: [jane],
			createdAt: ago(12 * DAY_MS),
			updatedAt: ago(11 * DAY_MS),
		},
		{
			name: 'Quote acceptance – withdrawn',
			status: 'cancelled',
			recipients: [mei],
			createdAt: ago(15 * DAY_MS),
			updatedAt: ago(14 * DAY_MS),
		},
		{
			name: 'Variation agreement',
			status: 'expired',
			recipients: [raj],
			expiryDays: 7,
			createdAt: ago(30 * DAY_MS),
			sentAt: ago(30 * DAY_MS),
			updatedAt: ago(23 * DAY_MS),
		},
	];
	for (const session of demo) store.createSession({ ...session, orgId: demoOrgId });

	store.createSession({
		orgId: otherOrgId,
		name: 'Other org – confidential merger',
		status: 'pending',
		recipients: [jane],
		createdAt: ago(DAY_MS),
	});
	store.createSession({
		orgId: otherOrgId,
		name: 'Other org – draft',
		status: 'draft',
		createdAt: ago(HOUR_MS),
	});
}
