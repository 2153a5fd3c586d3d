// The package's public entry; its modules are added as they are built.
export {};
