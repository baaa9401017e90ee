// The virtual clock is part of the engine's API (`VirtualTimeScheduler`, `TimedEvent`'s frames):
// `import Reactive` brings it.
@_exported import VirtualClock
