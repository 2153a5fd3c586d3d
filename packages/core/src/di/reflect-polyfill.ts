// tsyringe needs the Reflect metadata API when it is imported, so this module is loaded before tsyringe
// (load-tsyringe.ts), when the first container is made. It is the package's one side effect, listed in
// package.json `sideEffects`.
import 'reflect-metadata';
