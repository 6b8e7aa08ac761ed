"""Timeloop's mapspace constraint rules, read independently of marlmap.

timeloop_race checks every mapping a marlmap searcher reports, as the
Timeloop mapping marlmap writes for it, against the case's constraints
file with this reading of Timeloop's rules, so that a mapping marlmap
wrongly lets through is caught by something other than marlmap.
"""

import yaml

DIMS = "NKCPQRSG"


def targets(constraints_yaml):
    """Flat (target, type, body) triples of a Timeloop constraints file."""
    root = yaml.safe_load(constraints_yaml)
    section = root.get("mapspace", root.get("mapspace_constraints", {}))
    items = section.get("constraints", []) if isinstance(section, dict) \
        else section
    flat = []
    if not items:
        raise SystemExit("no constraint targets found in a case's "
                         "constraints file: the checker reads the "
                         "mapspace: {constraints: [...]} layout")
    for item in items:
        for nested in item.get("constraints", [item]):
            body = dict(nested.get("attributes", {}), **nested)
            flat.append((item.get("target", nested.get("target")),
                         nested["type"], body))
    return flat


def factors(text):
    """{'R': ('=', 1), 'C': ('<=', 4)} from 'R1 C<=4'."""
    out, i = {}, 0
    text = str(text)
    while i < len(text):
        if not text[i].isalpha():
            i += 1
            continue
        dim = text[i]
        i += 1
        op = "="
        if text.startswith("<=", i):
            op, i = "<=", i + 2
        while i < len(text) and text[i] in "= ":
            i += 1
        j = i
        while j < len(text) and text[j].isdigit():
            j += 1
        out[dim] = (op, int(text[i:j]))
        i = j
    return out


def mapping_levels(mapping_yaml):
    """Per level: temporal factors and permutation, spatial factors and the
    dims on X, keep list."""
    levels = {}
    for entry in yaml.safe_load(mapping_yaml)["mapping"]:
        level = levels.setdefault(entry["target"], {})
        if entry["type"] == "datatype":
            level["keep"] = set(entry.get("keep") or [])
        elif entry["type"] == "temporal":
            level["temporal"] = {d: v for d, (_, v) in
                                 factors(entry["factors"]).items()}
            level["permutation"] = entry["permutation"].replace(" ", "")
        elif entry["type"] == "spatial":
            level["spatial"] = {d: v for d, (_, v) in
                                factors(entry["factors"]).items()}
            perm = entry["permutation"].replace(" ", "")
            level["on_x"] = set(perm[:int(entry.get("split", len(perm)))])
    return levels


def violations(constraints_yaml, mapping_yaml, bounds):
    """What the Timeloop mapping breaks of the constraints, as text."""
    levels = mapping_levels(mapping_yaml)
    broken = []
    for target, kind, body in targets(constraints_yaml):
        target = str(target).split("[")[0]
        if target not in levels:
            raise SystemExit(f"the mapping has no level '{target}'")
        level = levels[target]
        if kind in ("temporal", "spatial"):
            have = level.get(kind, {})
            written = body.get("factors", "")
            if isinstance(written, list):
                written = " ".join(written)
            for dim, (op, value) in factors(written).items():
                if dim not in bounds:
                    continue
                got = have.get(dim, 1)
                want = bounds[dim] if value == 0 else value
                if op == "<=" and got > value:
                    broken.append(f"{target} {kind} {dim}<={value}: {got}")
                elif op == "=" and want <= bounds[dim] and got != want:
                    broken.append(f"{target} {kind} {dim}={want}: {got}")
        if kind == "temporal" and "permutation" in body:
            # Listed dims are the innermost; only loops that iterate count.
            listed = [d for d in "".join(body["permutation"]) if d in bounds]
            temporal = level.get("temporal", {})
            moving = [d for d in level.get("permutation", "")
                      if temporal.get(d, 1) > 1]
            inner = [d for d in listed if temporal.get(d, 1) > 1]
            if moving[:len(inner)] != inner:
                broken.append(f"{target} permutation {body['permutation']}: "
                              f"{level.get('permutation')}")
        if kind == "spatial" and "split" in body:
            perm = "".join(body["permutation"]).replace(" ", "")
            split = int(body["split"])
            x = set(perm[:split]) | (set(DIMS) - set(perm)
                                     if split >= len(perm) else set())
            for dim, got in level.get("spatial", {}).items():
                on_x = dim in level.get("on_x", set())
                if got > 1 and on_x != (dim in x):
                    broken.append(f"{target} spatial {dim} along "
                                  f"{'X' if on_x else 'Y'}")
        if kind in ("datatype", "bypass", "bypassing", "dataspace"):
            keep = level.get("keep", set())
            for space in body.get("keep") or []:
                if space not in keep:
                    broken.append(f"{target} keep {space}")
            for space in body.get("bypass") or []:
                if space in keep and target != list(levels)[-1]:
                    broken.append(f"{target} bypass {space}")
    return broken
