// A Nest application that issues invoices: `issue` runs under the lock `invoices:<id>` in every
// process of the application, so two requests for one invoice never both issue it. `nestjs.ts`
// runs it; examples/test/nest-app.test.ts (vitest) and examples/jest (jest) test it.
import { setTimeout as sleep } from 'node:timers/promises';
import { Injectable, Module, type DynamicModule } from '@nestjs/common';
import { DeadboltModule, lockSignal, WithLock } from '@deadbolt/nestjs';

@Injectable()
export class InvoiceService {
  // Stands in for the application's database.
  readonly #issued = new Set<string>();

  @WithLock((invoice: string) => `invoices:${invoice}`, { waitTime: 2_000, waitTimeoutStatus: 423 })
  async issue(invoice: string): Promise<string> {
    if (this.#issued.has(invoice)) return `invoice ${invoice} was already issued`;
    // Rendering stops if the lock is lost meanwhile (its lease ran out, Redis out of reach).
    await sleep(50, undefined, { signal: lockSignal() });
    this.#issued.add(invoice);
    return `invoice ${invoice} issued`;
  }
}

@Module({})
export class InvoiceModule {
  /** The application's module, its locks on the Redis server at `url`. */
  static connect(url: string): DynamicModule {
    return { module: InvoiceModule, imports: [DeadboltModule.forRoot({ url })], providers: [InvoiceService] };
  }
}
