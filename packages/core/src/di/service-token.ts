import type { ClassProvider, FactoryProvider, RegistrationOptions, ValueProvider } from 'tsyringe';

declare const serviceType: unique symbol;

/**
 * An injection token that knows the type of its service, so that `container.resolve(TOKENS.Memory)` is a
 * `Memory` without a cast. At run time it is a registered symbol (`Symbol.for`), so two copies of a
 * package agree on it.
 */
export type ServiceToken<Service> = symbol & { readonly [serviceType]?: Service };

/** A token for a service of type `Service`, named `agentloop.<name>`. */
export function serviceToken<Service>(name: string): ServiceToken<Service> {
  // The one place a plain symbol becomes a typed token: the type exists only for the compiler.
  return Symbol.for(`agentloop.${name}`) as ServiceToken<Service>;
}

// tsyringe types a symbol token's service as `unknown`; these overloads read the service type off a
// ServiceToken instead, for every container, wherever it is used. (tsyringe's own overloads still accept
// any symbol, so `register` cannot refuse a wrong service; `resolve` is what gains the type.)
declare module 'tsyringe' {
  interface DependencyContainer {
    resolve<Service>(token: ServiceToken<Service>): Service;
    resolveAll<Service>(token: ServiceToken<Service>): Service[];
    register<Service>(
      token: ServiceToken<Service>,
      provider: ValueProvider<Service> | FactoryProvider<Service> | ClassProvider<Service>,
      options?: RegistrationOptions,
    ): DependencyContainer;
  }
}
