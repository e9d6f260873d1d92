/* slabfill_obj.S - the compiled BPF program (slabfill.bpf.c) as bytes in
 * the slab-fill binary, so that it needs no file beside it. */
	.section .rodata
	.global slabfill_bpf_obj
	.global slabfill_bpf_obj_end
	.balign 8
slabfill_bpf_obj:
	.incbin SLABFILL_BPF_OBJ
slabfill_bpf_obj_end:
	.section .note.GNU-stack,"",@progbits
