import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { sessionLocator } from '../../descriptions/locators';
import {
	itemsAtOnceOption,
	maxRateLimitWaitOption,
	optionsCollection,
} from '../../descriptions/options';
import type { FailureMessages } from '../../errors/messages';
import { withUtcTimestamps } from '../../helpers/dates';
import { readLocatorId } from '../../helpers/locator';
import { maxRateLimitWaitMs } from '../../helpers/options';
import { callAirSign } from '../../transport/call';
import { sessionNotFound } from '../../errors/messages';
import { identifyByParameters } from '../itemIdentity';

const properties: INodeProperties[] = [
	sessionLocator('The session to read'),
	optionsCollection([maxRateLimitWaitOption, itemsAtOnceOption]),
];

export const itemsAtOnce = true;

export const description = updateDisplayOptions(
	{ show: { resource: ['session'], operation: ['get'] } },
	properties,
);

const failures: FailureMessages = {
	404: sessionNotFound,
};

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	const sessionId = readLocatorId(
		this.getNode(),
		this.getNodeParameter('sessionId', itemIndex),
		'session',
		itemIndex,
	);
	const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const { body } = await callAirSign(
		this,
		{ method: 'GET', path: `/Session/${encodeURIComponent(sessionId)}`, itemIndex },
		{ failures, maxRateLimitWaitMs: maxRateLimitWaitMs(this, options) },
	);
	return [withUtcTimestamps(body as IDataObject)];
}

export const identify = identifyByParameters('sessionId');
