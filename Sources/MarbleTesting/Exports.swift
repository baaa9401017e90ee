// A test target depends on MarbleTesting alone: the engine's publishers and operators come
// with it, so `import MarbleTesting` is the one import a marble test needs.
@_exported import Reactive
