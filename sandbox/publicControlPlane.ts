import type { SandboxContext } from './context';
import { apiError, json, type Reply } from './http';
import type { CreateTemplateInput, SignInput } from './publicTypes';
import { completeSession, signRecipient } from './sendInvitation';

/**
 * Control-plane routes for what the public API adds: templates (created and activated here,
 * as AirSign's editor would), recipient progress and plan features. Null: not one of these.
 */
export function publicControlRoute(
	ctx: SandboxContext,
	key: string,
	id: string,
	body: Record<string, unknown>,
): Reply | null {
	const { templates, store } = ctx;
	switch (key) {
		case 'GET /templates':
			return json(
				200,
				[...templates.templates.values()].map((t) => templates.snapshot(t)),
			);
		case 'POST /templates':
			return json(201, templates.snapshot(templates.create(body as CreateTemplateInput)));
		case 'GET /templates/:id': {
			const template = templates.templates.get(id.toLowerCase());
			return template
				? json(200, templates.snapshot(template))
				: apiError(404, 'NOT_FOUND', `No template ${id}`);
		}
		case 'POST /templates/:id/activate':
			if (!templates.templates.has(id.toLowerCase()))
				return apiError(404, 'NOT_FOUND', `No template ${id}`);
			return json(200, templates.snapshot(templates.activate(id)));
		case 'POST /sessions/:id/sign': {
			const session = store.sessions.get(id.toLowerCase());
			if (!session) return apiError(404, 'NOT_FOUND', `No session ${id}`);
			signRecipient(store, session, body as SignInput);
			return json(200, store.snapshot(session));
		}
		case 'POST /sessions/:id/complete': {
			const session = store.sessions.get(id.toLowerCase());
			if (!session) return apiError(404, 'NOT_FOUND', `No session ${id}`);
			completeSession(store, session);
			return json(200, store.snapshot(session));
		}
		case 'GET /orgs/:id/plan':
			return json(200, { orgId: id, features: ctx.orgs.features(id) });
		case 'PUT /orgs/:id/plan': {
			if (!Array.isArray(body.features)) throw new Error('features must be an array');
			return json(200, { orgId: id, features: ctx.orgs.setFeatures(id, body.features) });
		}
		default:
			return null;
	}
}
