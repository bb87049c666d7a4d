
Ú/device:GPU:3˛Stream #25(Kernel)’Õ7"9†úñá¢¿“ù"·"	8"8"8"8"8" "9‡ßâë¢Ä¬ﬁ"‚"	8"8"8"8"8" "9‡Úè⁄¢Äÿû"Â"	8
"8"8"8"8" ":‡ÔÄâ£Ä¢ûã"Ë"	8"8"8"8"8" ":‡ëüî§Ëß≠¢"È"	8"8"8"8"8" "9∏ÈõúÊ¿¨Ä"Â"	8"8"8"8"8" "Im3d2Col.kd"áÇ˝Cijk_Ailk_Bljk_BBS_BH_MT256x128x64_MI16x16x16x1_SN_1LDSB0_APM1_ABV0_ACED0_AF0EM1_AF1EM1_AMAS3_ASE_ASGT_ASLT_ASM_ASAE01_ASCE01_ASEM1_AAC0_BL1_BS1_CLR1_DTLA0_DTLB0_DTVA1_DTVB0_DVO0_ETSP_EPS1_ELFLR0_EMLL0_FSSC10_FL0_GLVWA2_GLVWB4_GRCGA1_GRCGB1_GRPM1_GRVWn1_GSU1_GSUASB_GLS0_ISA942_IU1_K1_KLA_LBSPPA0_LBSPPB1024_LPA0_LPB4_LDL1_LRVW4_LWPMn1_LDW0_FMA_MIAV0_MDA2_MO40_MMFSC_MKFGSU256_NTA0_NTB0_NTC0_NTD0_NEPBS0_NLCA2_NLCB2_ONLL1_OPLV0_PK0_PAP0_PGR2_PLR5_PKA0_SIA3_SLW1_SS1_SU8_SUM0_SUS256_SCIUI1_SPO1_SRVW0_SSO0_SVW2_SNLL0_TSGRA0_TSGRB0_TT4_128_TLDS0_UMLDSA0_UMLDSB0_U64SL1_USFGROn1_VAW1_VSn1_VW2_VWB4_VFLRP1_WSGRA0_WSGRB0_WS64_WG64_4_1_WGM1.kd"#input_transpose_fusion_1.kd"!input_transpose_fusion.kd" loop_transpose_fusion.kd*device_vendor*LHD grid:219,40,1 block:256,1,1 private_mem:0 group_mem:49280 occ_pct:0*
core_count*KGC grid:6240,1,1 block:256,1,1 private_mem:0 group_mem:2112 occ_pct:0*memory_size*
XlaModule:*
hlo_op*name* input_transpose_fusion.1*compute_cap_minor*compute_cap_major*
hlo_module*
kernel*	tf_op*	x*HD@ grid:1280,1,1 block:256,1,1 private_mem:0 group_mem:0 occ_pct:0*jit_forward_3d_conv*input_transpose_fusion*LHD grid:69840,1,1 block:256,1,1 private_mem:0 group_mem:8192 occ_pct:0*1-)jit(forward_3d_conv)/conv_general_dilated*correlation_id*H
D
@ grid:1024,1,1 block:256,1,1 private_mem:0 group_mem:0 occ_pct:0*memory_bandwidth*
clock_rate*loop_transpose_fusion*cudnn-conv.1*		kernel_details*
program_id2*AMD2 †ñÄ2 ∞2	ÄÄ†õæM2	ÄÄÄ¯ˇ2 	2 "tw003