/**
 * Something that happens again and again (an answer came, an item ended): `next()` waits for
 * its next time, `happened()` wakes every waiter and starts the wait for the time after.
 */
export class Signal {
	private resolve: () => void = () => {};
	private nextTime = this.renewed();

	async next(): Promise<void> {
		return await this.nextTime;
	}

	happened(): void {
		const resolve = this.resolve;
		this.nextTime = this.renewed();
		resolve();
	}

	private renewed(): Promise<void> {
		return new Promise<void>((resolve) => (this.resolve = resolve));
	}
}
