import json, sys
S = json.load(open('/tmp/gemprobe/schema/settings-0.61.json'))
D = json.load(open('/tmp/gemprobe/schema/defs-0.61.json'))
ANY = {"t": "any"}
def prim(t): return {"t": t}
def enum(opts): return {"t": "enum", "e": [o["value"] for o in opts]}
def js(d):
    if "anyOf" in d: return {"t": "union", "u": [js(x) for x in d["anyOf"]]}
    t = d.get("type")
    if t == "string": return {"t": "enum", "e": d["enum"]} if "enum" in d else prim("string")
    if t in ("number", "boolean"): return prim(t)
    if t == "array": return {"t": "array", "i": js(d["items"])} if "items" in d else {"t": "array"}
    if t == "object":
        o = {"t": "object"}
        if "properties" in d:
            o["p"] = {k: js(v) for k, v in d["properties"].items()}
            if isinstance(d.get("required"), list): o["r"] = d["required"]
        else:
            o["free"] = True
        if d.get("additionalProperties") is False: o["strict"] = True
        elif isinstance(d.get("additionalProperties"), dict): o["a"] = js(d["additionalProperties"]); o["free"] = True
        return o
    return ANY
def coll(c):
    if c.get("ref") in D: return js(D[c["ref"]])
    t = c.get("type")
    if t in ("string", "number", "boolean"): return prim(t)
    if t == "enum": return enum(c["options"])
    if t == "array":
        if "properties" in c: return {"t": "array", "i": {"t": "object", "p": {k: defn(v) for k, v in c["properties"].items()}}}
        return {"t": "array"}
    if t == "object":
        if "properties" in c: return {"t": "object", "p": {k: defn(v) for k, v in c["properties"].items()}}
        return {"t": "object", "free": True}
    return ANY
def defn(d):
    if d.get("ref") == "TelemetrySettings": return {"t": "union", "u": [prim("boolean"), js(D["TelemetrySettings"])]}
    if d.get("ref") in D: return js(D[d["ref"]])
    t = d.get("type")
    if t in ("string", "number", "boolean"): return prim(t)
    if t == "enum": return enum(d["options"])
    if t == "array": return {"t": "array", "i": coll(d["items"])} if "items" in d else {"t": "array"}
    if t == "object":
        if "properties" in d:
            o = {"t": "object", "p": {k: defn(v) for k, v in d["properties"].items()}}
            if "additionalProperties" in d and d["additionalProperties"]: o["a"] = coll(d["additionalProperties"]); o["free"] = True
            return o
        if d.get("additionalProperties"): return {"t": "object", "free": True, "a": coll(d["additionalProperties"])}
        return {"t": "object", "free": True}
    return ANY
top = {"t": "object", "p": {k: defn(v) for k, v in S.items()}}
json.dump(top, open(sys.argv[1], "w"), separators=(",", ":"), sort_keys=False)
# agentc's additions: keys Gemini CLI reads outside its schema.
top = json.load(open(sys.argv[1]))
top["p"]["$schema"] = {"t": "string"}
for ev, arr in top["p"]["hooks"]["p"].items():
    grp = arr["i"]
    grp["p"]["sequential"] = {"t": "boolean"}
    grp["p"]["hooks"]["i"]["free"] = True
json.dump(top, open(sys.argv[1], "w"), separators=(",", ":"))
