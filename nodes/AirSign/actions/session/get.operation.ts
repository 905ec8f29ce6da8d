import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { sessionLocator } from '../../descriptions/locators';
import { itemOptions, maxRateLimitWaitMs, optionsCollection } from '../../descriptions/options';
import { failer } from '../../errors/nodeError';
import { readLocatorId } from '../../helpers/validation';
import { getSession } from '../../transport/sessionPages';
import { identifyByParameters } from '../itemIdentity';
import type { ShapeName } from '../shapes';

export const description: INodeProperties[] = [
	sessionLocator('The session to read'),
	optionsCollection(itemOptions),
];

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	const given = this.getNodeParameter('sessionId', itemIndex);
	const sessionId = readLocatorId(given, 'session', failer(this.getNode(), itemIndex));
	const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const session = await getSession(this, sessionId, itemIndex, maxRateLimitWaitMs(this, options));
	return [session];
}

export const identify = identifyByParameters('sessionId');

/** Its items are sessions: Simplify and a tool's Output apply (actions/shapes.ts). */
export const output: ShapeName = 'session';
