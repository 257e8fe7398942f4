/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * bpf_endian.h - byte order conversions for BPF programs.
 *
 * Network protocols are big-endian; BPF runs in the byte order of the host
 * (clang -target bpf picks it, bpfel on x86_64 and arm64). A BPF program has
 * no libc <arpa/inet.h>, so these replace htons() and friends:
 *
 *	if (eth->h_proto != bpf_htons(ETH_P_IP))
 *		return XDP_PASS;
 *
 * bpf_htons(x) and the like fold to a constant when x is one, and otherwise
 * compile to a single BPF byte-swap instruction. The __bpf_constant_
 * variants are plain expressions of x, usable where C needs an integer
 * constant expression (case labels, static initializers).
 *
 * Needs nothing else: it is plain C on the compiler's own builtins. Names
 * and meaning are libbpf's.
 */
#ifndef BPFSDK_BPF_ENDIAN_H
#define BPFSDK_BPF_ENDIAN_H

/* Byte reversal as pure expressions, for constant contexts. */
#define __bpfsdk_swab16(x)						\
	((unsigned short)((((unsigned short)(x) & 0x00ffU) << 8) |	\
			  (((unsigned short)(x) & 0xff00U) >> 8)))
#define __bpfsdk_swab32(x)						\
	((unsigned int)((((unsigned int)(x) & 0x000000ffU) << 24) |	\
			(((unsigned int)(x) & 0x0000ff00U) << 8) |	\
			(((unsigned int)(x) & 0x00ff0000U) >> 8) |	\
			(((unsigned int)(x) & 0xff000000U) >> 24)))
#define __bpfsdk_swab64(x)						\
	((unsigned long long)(						\
	 (((unsigned long long)(x) & 0x00000000000000ffULL) << 56) |	\
	 (((unsigned long long)(x) & 0x000000000000ff00ULL) << 40) |	\
	 (((unsigned long long)(x) & 0x0000000000ff0000ULL) << 24) |	\
	 (((unsigned long long)(x) & 0x00000000ff000000ULL) << 8) |	\
	 (((unsigned long long)(x) & 0x000000ff00000000ULL) >> 8) |	\
	 (((unsigned long long)(x) & 0x0000ff0000000000ULL) >> 24) |	\
	 (((unsigned long long)(x) & 0x00ff000000000000ULL) >> 40) |	\
	 (((unsigned long long)(x) & 0xff00000000000000ULL) >> 56)))

#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define __bpfsdk_be16(x)	__builtin_bswap16(x)
#define __bpfsdk_be32(x)	__builtin_bswap32(x)
#define __bpfsdk_be64(x)	__builtin_bswap64(x)
#define __bpfsdk_const_be16(x)	__bpfsdk_swab16(x)
#define __bpfsdk_const_be32(x)	__bpfsdk_swab32(x)
#define __bpfsdk_const_be64(x)	__bpfsdk_swab64(x)
#elif __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define __bpfsdk_be16(x)	((unsigned short)(x))
#define __bpfsdk_be32(x)	((unsigned int)(x))
#define __bpfsdk_be64(x)	((unsigned long long)(x))
#define __bpfsdk_const_be16(x)	((unsigned short)(x))
#define __bpfsdk_const_be32(x)	((unsigned int)(x))
#define __bpfsdk_const_be64(x)	((unsigned long long)(x))
#else
#error "bpf_endian.h: the compiler does not say the byte order (__BYTE_ORDER__)"
#endif

/*
 * __bpf_constant_htons(x) .. __bpf_constant_be64_to_cpu(x) - host to network
 * (big-endian) order and back, for 16, 32 and 64 bits, as integer constant
 * expressions.
 */
#define __bpf_constant_htons(x)		__bpfsdk_const_be16(x)
#define __bpf_constant_ntohs(x)		__bpfsdk_const_be16(x)
#define __bpf_constant_htonl(x)		__bpfsdk_const_be32(x)
#define __bpf_constant_ntohl(x)		__bpfsdk_const_be32(x)
#define __bpf_constant_cpu_to_be64(x)	__bpfsdk_const_be64(x)
#define __bpf_constant_be64_to_cpu(x)	__bpfsdk_const_be64(x)

/*
 * __bpf_htons(x) .. __bpf_be64_to_cpu(x) - the same conversions as run-time
 * expressions: one byte-swap instruction (none on a big-endian target),
 * whatever x is.
 */
#define __bpf_htons(x)		__bpfsdk_be16(x)
#define __bpf_ntohs(x)		__bpfsdk_be16(x)
#define __bpf_htonl(x)		__bpfsdk_be32(x)
#define __bpf_ntohl(x)		__bpfsdk_be32(x)
#define __bpf_cpu_to_be64(x)	__bpfsdk_be64(x)
#define __bpf_be64_to_cpu(x)	__bpfsdk_be64(x)

/*
 * bpf_htons(x), bpf_ntohs(x) - 16 bits, host <-> network order.
 * bpf_htonl(x), bpf_ntohl(x) - 32 bits.
 * bpf_cpu_to_be64(x), bpf_be64_to_cpu(x) - 64 bits.
 * Constant arguments fold at compile time; others cost one instruction.
 */
#define bpf_htons(x)							\
	(__builtin_constant_p(x) ? __bpf_constant_htons(x) : __bpfsdk_be16(x))
#define bpf_ntohs(x)							\
	(__builtin_constant_p(x) ? __bpf_constant_ntohs(x) : __bpfsdk_be16(x))
#define bpf_htonl(x)							\
	(__builtin_constant_p(x) ? __bpf_constant_htonl(x) : __bpfsdk_be32(x))
#define bpf_ntohl(x)							\
	(__builtin_constant_p(x) ? __bpf_constant_ntohl(x) : __bpfsdk_be32(x))
#define bpf_cpu_to_be64(x)						\
	(__builtin_constant_p(x) ? __bpf_constant_cpu_to_be64(x) :	\
				   __bpfsdk_be64(x))
#define bpf_be64_to_cpu(x)						\
	(__builtin_constant_p(x) ? __bpf_constant_be64_to_cpu(x) :	\
				   __bpfsdk_be64(x))

#endif /* BPFSDK_BPF_ENDIAN_H */
