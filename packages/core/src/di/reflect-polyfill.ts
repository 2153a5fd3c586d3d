// tsyringe needs the Reflect metadata API when it is imported, so this module must be imported before
// tsyringe anywhere in core. It is the package's one side effect, listed in package.json `sideEffects`.
import 'reflect-metadata';
