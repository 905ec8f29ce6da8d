import { DAY_MS as D, type Store } from './store';
import type { CreateSessionInput } from './types';

const H = 60 * 60 * 1000;

/**
 * A dozen sessions in every state for the demo organisation, dated relative to the
 * sandbox clock so "recent" stays recent, plus two for the other organisation so
 * isolation is visible in a demo.
 */
export function seedDemoData(store: Store, demoOrgId: string, otherOrgId: string, now: number) {
	const jane = { name: 'Jane Citizen', email: 'jane.citizen@example.com' };
	const raj = { name: 'Raj Patel', email: 'raj.patel@example.com' };
	const mei = { name: 'Mei Chen', email: 'mei.chen@example.com' };
	const tom = { name: 'Tom Nguyen', email: 'tom.nguyen@example.com' };
	type Row = [string, CreateSessionInput['status'], object[], number, number?, CreateSessionInput?];
	// name, status, recipients, created and updated (default: when created) that long ago, more
	const demo: Row[] = [
		['Employment contract – Jane Citizen', 'draft', [jane], 2 * H, undefined, { expiryDays: 14 }],
		['NDA – Acme Pty Ltd', 'draft', [raj, mei], 5 * H],
		['Lease renewal – 12 George St (unfinished)', 'draft', [{ name: 'Tom Nguyen' }], D],
		['Board resolution (no recipients yet)', 'draft', [], D + H],
		['Self-signed declaration', 'draft', [jane], 2 * D, undefined, { selfSignOnly: true }],
		['Contractor agreement – Raj Patel', 'pending', [raj], 3 * D, 3 * D - H, { expiryDays: 7 }],
		['Supplier terms – Mei Chen', 'pending', [mei, tom], 4 * D, 4 * D - H],
		['Partnership deed', 'inProgress', [raj, jane, mei], 6 * D, H],
		['Offer letter – Tom Nguyen', 'completed', [tom], 10 * D, 8 * D],
		['Consent form – Jane Citizen', 'completed', [jane], 12 * D, 11 * D],
		['Quote acceptance – withdrawn', 'cancelled', [mei], 15 * D, 14 * D],
		[
			'Variation agreement',
			'expired',
			[raj],
			30 * D,
			23 * D,
			{ expiryDays: 7, sentAt: now - 30 * D },
		],
	];
	for (const [name, status, recipients, created, updated, more] of demo) {
		const times = { createdAt: now - created, updatedAt: now - (updated ?? created) };
		store.createSession({ orgId: demoOrgId, name, status, recipients, ...times, ...more });
	}
	const confidential = { name: 'Other org – confidential merger', recipients: [jane] };
	store.createSession({
		orgId: otherOrgId,
		...confidential,
		status: 'pending',
		createdAt: now - D,
	});
	store.createSession({ orgId: otherOrgId, name: 'Other org – draft', createdAt: now - H });
}
