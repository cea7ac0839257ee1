"""Reports compared "timing aside": the fields that measure time or describe the run itself (wall
clock, start time, command line, workers, shard, cost figures, cache hits) are dropped, and what is
left must be equal. Used by the shard, worker-count (and process-count) equality tests."""

TIMING = {"seconds", "duration_s", "started", "command", "merged_from", "from_cache", "ns_per_step",
          "ratio_to_baseline", "ratio_to_rk4", "steps_per_second", "jobs", "shard"}


def strip(x):
    if isinstance(x, dict):
        return {k: strip(v) for k, v in x.items() if k not in TIMING}
    if isinstance(x, list):
        return [strip(v) for v in x]
    return x


def first_difference(a, b, path="$"):
    """The path of the first place where a and b differ (None when equal): for a failure message."""
    if type(a) is not type(b):
        return f"{path}: {type(a).__name__} vs {type(b).__name__}"
    if isinstance(a, dict):
        for k in sorted(set(a) | set(b)):
            if k not in a or k not in b:
                return f"{path}.{k}: only in one report"
            d = first_difference(a[k], b[k], f"{path}.{k}")
            if d:
                return d
        return None
    if isinstance(a, list):
        if len(a) != len(b):
            return f"{path}: {len(a)} vs {len(b)} entries"
        for i, (x, y) in enumerate(zip(a, b)):
            d = first_difference(x, y, f"{path}[{i}]")
            if d:
                return d
        return None
    return None if a == b else f"{path}: {a!r} vs {b!r}"
