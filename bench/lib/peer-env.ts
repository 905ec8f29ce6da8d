/** The HTTP Request side's credential and node types in the bench's simulated n8n instance. */
import type { IExecuteFunctions, INodeType } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import type { CredentialRef } from '../../test/harness/environment';
import type { EngineContext } from './engine';
import type { N8nNodesBase } from './n8n-nodes-base';
import { loadN8nNodesBase } from './n8n-nodes-base';
import type { ChainNode } from './workflow';

export interface PeerEnvironment {
	base: N8nNodesBase;
	/** Header Auth: `Authorization: Bearer <token>`. */
	credential: CredentialRef;
}

export async function peerEnvironment(
	engine: EngineContext,
	token: string,
): Promise<PeerEnvironment> {
	const base = loadN8nNodesBase();
	if (!engine.env.credentialTypes.has(base.httpHeaderAuth.name))
		engine.env.credentialTypes.add(base.httpHeaderAuth);
	const credential = await engine.env.addCredential('httpHeaderAuth', {
		name: 'Authorization',
		value: `Bearer ${token}`,
	});
	return { base, credential };
}

/** A pass-through node that calls `onStart` and hands its input on untouched (the memory bench's idle point). */
export function markerNode(onStart: () => void): ChainNode {
	const nodeType: INodeType = {
		description: {
			displayName: 'Mark',
			name: 'mark',
			group: ['transform'],
			version: 1,
			description: 'Marks a point in the run',
			defaults: { name: 'Mark' },
			inputs: [NodeConnectionTypes.Main],
			outputs: [NodeConnectionTypes.Main],
			properties: [],
		},
		async execute(this: IExecuteFunctions) {
			onStart();
			return [this.getInputData()];
		},
	};
	return { name: 'Mark', type: 'n8n-nodes-bench.mark', nodeType, parameters: {} };
}
