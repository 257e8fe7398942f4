#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
"""gen_obj.py - write a BPF ELF object that is large along one axis, for the
growth test (tests/bats/complexity.bats): the time `bpfsdk inspect` takes
must grow linearly with each.

    gen_obj.py OUT [--types N] [--syms N] [--secs N] [--lines N]

--types  a chain of N typedefs, then an array of one int, that the key of a
         map is declared through (BTF resolution); with --loop the array
         is of the first typedef, a loop the loader must name
--syms   N global variables in .data (and .data.1, ... past 50000), each a
         symbol and a BTF variable of its DATASEC (datasec fixup)
--secs   N program sections, each with a program that loads its own map:
         N maps, N relocations (section, map and relocation lookups)
--lines  a program that calls N functions of .text, each with its
         func_info and line_info (the linker's placement of each piece)

The object is well-formed enough for the loader to open it; nothing here
is meant for the kernel.
"""
import argparse
import struct

BTF_MAGIC = 0xEB9F
K_INT, K_PTR, K_ARRAY, K_STRUCT, K_TYPEDEF = 1, 2, 3, 4, 8
K_FUNC, K_PROTO, K_VAR, K_DATASEC = 12, 13, 14, 15

SHT_PROGBITS, SHT_SYMTAB, SHT_STRTAB, SHT_REL = 1, 2, 3, 9
SHF_WRITE, SHF_ALLOC, SHF_EXEC = 1, 2, 4
STB_GLOBAL, STT_OBJECT, STT_FUNC = 1, 1, 2


class Strings:
    def __init__(self):
        self.data = bytearray(b"\0")
        self.off = {"": 0}

    def add(self, s):
        if s not in self.off:
            self.off[s] = len(self.data)
            self.data += s.encode() + b"\0"
        return self.off[s]


def insn(code, dst=0, src=0, off=0, imm=0):
    return struct.pack("<BBhi", code, (src << 4) | dst, off, imm)


MOV0 = insn(0xB7)                      # r0 = 0
EXIT = insn(0x95)
CALL = insn(0x85, src=1, imm=-1)       # BPF-to-BPF call, relocated
LD_MAP = insn(0x18, dst=1) + insn(0)   # r1 = map, relocated


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--types", type=int, default=1)
    ap.add_argument("--syms", type=int, default=1)
    ap.add_argument("--secs", type=int, default=1)
    ap.add_argument("--lines", type=int, default=1)
    ap.add_argument("--loop", action="store_true")
    a = ap.parse_args()

    bs = Strings()          # BTF strings
    types = []              # encoded records; type ID = index + 1

    def t(kind, name, vlen, size_or_type, tail=b""):
        types.append(struct.pack("<III", bs.add(name), (kind << 24) | vlen,
                                 size_or_type) + tail)
        return len(types)

    t_int = t(K_INT, "int", 0, 4, struct.pack("<I", (1 << 24) | 32))
    t_proto = t(K_PROTO, "", 0, t_int)

    def arr(elem, n):
        return t(K_ARRAY, "", 0, 0, struct.pack("<III", elem, t_int, n))

    def ptr(to):
        return t(K_PTR, "", 0, to)

    # the key type: --types typedefs, each naming the next, then int[1];
    # with --loop the array is of the first typedef, which the loader must
    # refuse at once, naming the loop
    first = len(types) + 1
    for i in range(a.types):
        t(K_TYPEDEF, "k%d" % i, 0, first + i + 1)
    key = arr(first if a.loop and a.types else t_int, 1)
    if a.types:
        key = first

    # one map definition struct, shared by all maps
    members = [("type", ptr(arr(t_int, 2))),            # BPF_MAP_TYPE_ARRAY
               ("max_entries", ptr(arr(t_int, 1))),
               ("key", ptr(key)), ("value", ptr(t_int))]
    mdef = t(K_STRUCT, "mdef", len(members), 32, b"".join(
        struct.pack("<III", bs.add(n), ty, 64 * i) for i, (n, ty) in enumerate(members)))

    nmaps = max(a.secs, 1)
    map_vars = [t(K_VAR, "m%d" % i, 0, mdef, struct.pack("<I", 1)) for i in range(nmaps)]
    t(K_DATASEC, ".maps", nmaps, 0, b"".join(
        struct.pack("<III", v, 0, 32) for v in map_vars))
    # a DATASEC holds at most 65535 variables: 50000 in each of .data, .data.1, ...
    data_secs = [".data" + (".%d" % k if k else "") for k in range((a.syms + 49999) // 50000 or 1)]
    gvars = [("g%d" % i, data_secs[i // 50000], 4 * (i % 50000)) for i in range(a.syms)]
    for name in data_secs:
        mine = [t(K_VAR, g, 0, t_int, struct.pack("<I", 1)) for g, s, _ in gvars if s == name]
        t(K_DATASEC, name, len(mine), 0, b"".join(struct.pack("<III", v, 0, 4) for v in mine))

    # ---- sections
    secs = []   # (name, type, flags, data, link, info, entsize, align)

    def sec(name, typ, flags, data, link=0, info=0, entsize=0, align=8):
        secs.append([name, typ, flags, bytes(data), link, info, entsize, align])
        return len(secs)  # section index (0 is the null section)

    strtab = Strings()
    syms = [struct.pack("<IBBHQQ", 0, 0, 0, 0, 0, 0)]

    def sym(name, typ, shndx, value, size):
        syms.append(struct.pack("<IBBHQQ", strtab.add(name), (STB_GLOBAL << 4) | typ,
                                0, shndx, value, size))
        return len(syms) - 1

    rels = []   # (target section index, bytes)
    func_info = {}  # section name -> [(insn_off bytes, type id)]
    line_info = {}  # section name -> [(insn_off bytes, line)]
    file_off = bs.add("gen.c")
    line_off = bs.add("return 0;")

    # .maps first, so the program relocations can name the map symbols
    maps_sec = sec(".maps", SHT_PROGBITS, SHF_WRITE | SHF_ALLOC, bytes(32 * nmaps))
    map_syms = [sym("m%d" % i, STT_OBJECT, maps_sec, 32 * i, 32) for i in range(nmaps)]
    for name in data_secs:
        n = sum(1 for _, s, _ in gvars if s == name)
        idx = sec(name, SHT_PROGBITS, SHF_WRITE | SHF_ALLOC, bytes(4 * max(n, 1)))
        for g, s, off in gvars:
            if s == name:
                sym(g, STT_OBJECT, idx, off, 4)

    text_funcs = []
    if a.lines > 1:
        code = bytearray()
        for i in range(a.lines):
            name = "f%d" % i
            fid = t(K_FUNC, name, 1, t_proto)
            text_funcs.append(sym(name, STT_FUNC, 0, len(code), 16))   # shndx set below
            func_info.setdefault(".text", []).append((len(code), fid))
            line_info.setdefault(".text", []).extend([(len(code), i), (len(code) + 8, i)])
            code += MOV0 + EXIT
        text_sec = sec(".text", SHT_PROGBITS, SHF_ALLOC | SHF_EXEC, code)
        for s in text_funcs:    # now that .text has an index
            syms[s] = syms[s][:6] + struct.pack("<H", text_sec) + syms[s][8:]
        bs.add(".text")

    for i in range(a.secs):
        name = "tp/gen/p%d" % i
        body = LD_MAP + MOV0 + EXIT
        if i == 0 and text_funcs:
            body = LD_MAP + CALL * len(text_funcs) + MOV0 + EXIT
        idx = sec(name, SHT_PROGBITS, SHF_ALLOC | SHF_EXEC, body)
        fid = t(K_FUNC, "p%d" % i, 1, t_proto)
        sym("p%d" % i, STT_FUNC, idx, 0, len(body))
        bs.add(name)
        func_info[name] = [(0, fid)]
        line_info[name] = [(0, 1)]
        r = struct.pack("<QQ", 0, (map_syms[i] << 32) | 1)
        if i == 0:
            for k, s in enumerate(text_funcs):
                r += struct.pack("<QQ", 16 + 8 * k, (s << 32) | 10)
        rels.append((idx, name, r))

    sec("license", SHT_PROGBITS, SHF_WRITE | SHF_ALLOC, b"GPL\0", align=1)
    for target, name, r in rels:
        sec(".rel" + name, SHT_REL, 0, r, info=target, entsize=16)  # link: symtab, below

    # .BTF
    type_bytes = b"".join(types)
    btf = struct.pack("<HBBIIIII", BTF_MAGIC, 1, 0, 24, 0, len(type_bytes),
                      len(type_bytes), len(bs.data)) + type_bytes + bytes(bs.data)
    sec(".BTF", SHT_PROGBITS, 0, btf, align=4)

    def ext_list(recs, size, enc):
        out = struct.pack("<I", size)
        for name, lst in recs.items():
            out += struct.pack("<II", bs.off[name], len(lst)) + b"".join(enc(x) for x in lst)
        return out

    fi = ext_list(func_info, 8, lambda x: struct.pack("<II", *x))
    li = ext_list(line_info, 16, lambda x: struct.pack("<IIII", x[0], file_off, line_off,
                                                       (x[1] + 1) << 10))
    ext = struct.pack("<HBBIIIII", BTF_MAGIC, 1, 0, 24, 0, len(fi), len(fi), len(li)) + fi + li
    sec(".BTF.ext", SHT_PROGBITS, 0, ext, align=4)

    symtab = sec(".symtab", SHT_SYMTAB, 0, b"".join(syms), info=1, entsize=24)
    for s in secs:
        if s[1] == SHT_REL:
            s[4] = symtab
    strtab_sec = sec(".strtab", SHT_STRTAB, 0, b"", align=1)
    secs[symtab - 1][4] = strtab_sec
    # one string table for symbol and section names
    for s in secs:
        strtab.add(s[0])
    secs[strtab_sec - 1][3] = bytes(strtab.data)

    # ---- layout: header, section data, section headers
    out = bytearray(64)
    offs = []
    for s in secs:
        while len(out) % 8:
            out.append(0)
        offs.append(len(out))
        out += s[3]
    while len(out) % 8:
        out.append(0)
    shoff = len(out)
    out += bytes(64)    # the null section header
    for s, off in zip(secs, offs):
        out += struct.pack("<IIQQQQIIQQ", strtab.off[s[0]], s[1], s[2], 0, off, len(s[3]),
                           s[4], s[5], s[7], s[6])
    ident = b"\x7fELF" + bytes([2, 1, 1, 0]) + bytes(8)
    out[0:64] = ident + struct.pack("<HHIQQQIHHHHHH", 1, 247, 1, 0, 0, shoff, 0, 64, 0, 0,
                                    64, len(secs) + 1, strtab_sec)
    with open(a.out, "wb") as f:
        f.write(out)


if __name__ == "__main__":
    main()
