//! A Vulkan device that runs compute pipelines on storage buffers.
//!
//! This is the first part of the backend: one instance, one physical device chosen by
//! name, one compute queue. Buffers are host-visible; where the device has
//! `VK_EXT_external_memory_host` they are imported from host allocations instead of
//! allocated by the driver, which is how guest memory will be shared later.

use std::ffi::{c_char, CStr};
use std::time::{Duration, Instant};

use ash::vk;

/// Errors of the Vulkan backend.
#[derive(Debug, thiserror::Error)]
pub enum GpuError {
    /// libvulkan could not be loaded.
    #[error("cannot load the Vulkan loader: {0}")]
    Load(String),
    /// No physical device matches the selector.
    #[error("no Vulkan device matches {0:?} (found: {1})")]
    NoDevice(String, String),
    /// A Vulkan call failed.
    #[error("{0} failed: {1}")]
    Vk(&'static str, vk::Result),
    /// A request the device cannot serve.
    #[error("{0}")]
    Unsupported(String),
}

fn vkr<T>(what: &'static str, r: Result<T, vk::Result>) -> Result<T, GpuError> {
    r.map_err(|e| GpuError::Vk(what, e))
}

/// Properties of the selected device that shader code depends on.
#[derive(Debug, Clone)]
pub struct DeviceInfo {
    /// The driver's device name (`llvmpipe (LLVM 15…)`, `AMD RADV NAVI21` …).
    pub name: String,
    /// The subgroup size compute shaders run with.
    pub subgroup_size: u32,
    /// `maxComputeSharedMemorySize`.
    pub max_shared_memory: u32,
    /// Whether buffers are imported host memory (`VK_EXT_external_memory_host`).
    pub host_import: bool,
}

/// One storage buffer of a dispatch: its bytes go in and come back out.
pub type BufferData = Vec<u8>;

/// A Vulkan instance and device with a compute queue.
pub struct Device {
    _entry: ash::Entry,
    instance: ash::Instance,
    physical: vk::PhysicalDevice,
    device: ash::Device,
    queue: vk::Queue,
    queue_family: u32,
    memory: vk::PhysicalDeviceMemoryProperties,
    host_import: Option<(ash::ext::external_memory_host::Device, u64)>,
    info: DeviceInfo,
}

/// A compute pipeline with its layouts, destroyed with the value.
pub struct ComputePipeline<'d> {
    dev: &'d Device,
    module: vk::ShaderModule,
    set_layout: vk::DescriptorSetLayout,
    layout: vk::PipelineLayout,
    pipeline: vk::Pipeline,
    buffers: u32,
}

impl Drop for ComputePipeline<'_> {
    fn drop(&mut self) {
        let d = &self.dev.device;
        // SAFETY: the handles were created from this device and no command buffer using
        // them is pending (every dispatch waits for its fence).
        unsafe {
            d.destroy_pipeline(self.pipeline, None);
            d.destroy_pipeline_layout(self.layout, None);
            d.destroy_descriptor_set_layout(self.set_layout, None);
            d.destroy_shader_module(self.module, None);
        }
    }
}

/// A host allocation aligned for `VK_EXT_external_memory_host`.
struct HostBlock {
    ptr: *mut u8,
    layout: std::alloc::Layout,
}

impl HostBlock {
    fn new(size: usize, align: usize) -> Option<HostBlock> {
        let size = size.div_ceil(align) * align;
        let layout = std::alloc::Layout::from_size_align(size.max(align), align).ok()?;
        // SAFETY: the layout has a non-zero size.
        let ptr = unsafe { std::alloc::alloc_zeroed(layout) };
        (!ptr.is_null()).then_some(HostBlock { ptr, layout })
    }
}

impl Drop for HostBlock {
    fn drop(&mut self) {
        // SAFETY: allocated with this layout in `HostBlock::new`.
        unsafe { std::alloc::dealloc(self.ptr, self.layout) }
    }
}

struct Buf {
    buffer: vk::Buffer,
    memory: vk::DeviceMemory,
    size: usize,
    mapped: *mut u8,
    _host: Option<HostBlock>,
}

impl Device {
    /// Opens the first physical device whose name contains `name` (case-insensitive);
    /// `None` picks lavapipe (`llvmpipe`) if present, else the first device.
    pub fn open(name: Option<&str>) -> Result<Device, GpuError> {
        // SAFETY: loading libvulkan runs its initialisers; nothing else is required.
        let entry = unsafe { ash::Entry::load() }.map_err(|e| GpuError::Load(e.to_string()))?;
        let app = vk::ApplicationInfo::default()
            .application_name(c"native5")
            .api_version(vk::API_VERSION_1_2);
        let ci = vk::InstanceCreateInfo::default().application_info(&app);
        // SAFETY: the create info and what it points to live across the call.
        let instance = vkr("vkCreateInstance", unsafe {
            entry.create_instance(&ci, None)
        })?;
        match Self::open_on(entry, instance.clone(), name) {
            Ok(d) => Ok(d),
            Err(e) => {
                // SAFETY: no child object of the instance is alive on this path.
                unsafe { instance.destroy_instance(None) };
                Err(e)
            }
        }
    }

    fn open_on(
        entry: ash::Entry,
        instance: ash::Instance,
        name: Option<&str>,
    ) -> Result<Device, GpuError> {
        // SAFETY: the instance is valid.
        let phys = vkr("vkEnumeratePhysicalDevices", unsafe {
            instance.enumerate_physical_devices()
        })?;
        let mut names = Vec::new();
        for &p in &phys {
            // SAFETY: `p` came from this instance.
            let props = unsafe { instance.get_physical_device_properties(p) };
            names.push((p, cstr(&props.device_name)));
        }
        let want = name.unwrap_or("llvmpipe").to_lowercase();
        let chosen = names
            .iter()
            .find(|(_, n)| n.to_lowercase().contains(&want))
            .or(if name.is_none() { names.first() } else { None });
        let Some(&(physical, ref dev_name)) = chosen else {
            let all: Vec<_> = names.iter().map(|(_, n)| n.as_str()).collect();
            return Err(GpuError::NoDevice(want, all.join(", ")));
        };
        // SAFETY: `physical` came from this instance.
        let families = unsafe { instance.get_physical_device_queue_family_properties(physical) };
        let queue_family = families
            .iter()
            .position(|f| f.queue_flags.contains(vk::QueueFlags::COMPUTE))
            .ok_or_else(|| GpuError::Unsupported(format!("{dev_name}: no compute queue")))?
            as u32;
        // SAFETY: as above.
        let exts = vkr("vkEnumerateDeviceExtensionProperties", unsafe {
            instance.enumerate_device_extension_properties(physical)
        })?;
        let has_host = exts
            .iter()
            .any(|e| cstr(&e.extension_name) == "VK_EXT_external_memory_host");
        let mut sub = vk::PhysicalDeviceSubgroupProperties::default();
        let mut host_props = vk::PhysicalDeviceExternalMemoryHostPropertiesEXT::default();
        let mut props2 = vk::PhysicalDeviceProperties2::default().push_next(&mut sub);
        if has_host {
            props2 = props2.push_next(&mut host_props);
        }
        // SAFETY: the chain holds structs that live across the call.
        unsafe { instance.get_physical_device_properties2(physical, &mut props2) };
        let limits = props2.properties.limits;
        let subgroup_size = sub.subgroup_size;
        let host_align = host_props.min_imported_host_pointer_alignment;

        let prio = [1.0f32];
        let qci = [vk::DeviceQueueCreateInfo::default()
            .queue_family_index(queue_family)
            .queue_priorities(&prio)];
        let mut ext_names: Vec<*const c_char> = Vec::new();
        if has_host {
            ext_names.push(ash::ext::external_memory_host::NAME.as_ptr());
        }
        let mut f12 = vk::PhysicalDeviceVulkan12Features::default();
        let mut f11 = vk::PhysicalDeviceVulkan11Features::default();
        let mut feats = vk::PhysicalDeviceFeatures2::default()
            .push_next(&mut f11)
            .push_next(&mut f12);
        // SAFETY: the chain holds structs that live across the call.
        unsafe { instance.get_physical_device_features2(physical, &mut feats) };
        let base_feats = feats.features;
        let _ = feats;
        // Enable what the recompiled shaders may use and the device has.
        let mut want12 = vk::PhysicalDeviceVulkan12Features::default()
            .shader_float16(f12.shader_float16 != 0)
            .shader_int8(f12.shader_int8 != 0)
            .storage_buffer8_bit_access(f12.storage_buffer8_bit_access != 0)
            .vulkan_memory_model(f12.vulkan_memory_model != 0);
        let mut want11 = vk::PhysicalDeviceVulkan11Features::default()
            .storage_buffer16_bit_access(f11.storage_buffer16_bit_access != 0);
        let base = vk::PhysicalDeviceFeatures::default()
            .shader_int64(base_feats.shader_int64 != 0)
            .shader_int16(base_feats.shader_int16 != 0)
            .shader_float64(base_feats.shader_float64 != 0);
        let dci = vk::DeviceCreateInfo::default()
            .queue_create_infos(&qci)
            .enabled_extension_names(&ext_names)
            .enabled_features(&base)
            .push_next(&mut want11)
            .push_next(&mut want12);
        // SAFETY: the create info and what it points to live across the call.
        let device = vkr("vkCreateDevice", unsafe {
            instance.create_device(physical, &dci, None)
        })?;
        // SAFETY: the family and index were requested at device creation.
        let queue = unsafe { device.get_device_queue(queue_family, 0) };
        // SAFETY: `physical` came from this instance.
        let memory = unsafe { instance.get_physical_device_memory_properties(physical) };
        let host_import = has_host.then(|| {
            (
                ash::ext::external_memory_host::Device::new(&instance, &device),
                host_align,
            )
        });
        let info = DeviceInfo {
            name: dev_name.clone(),
            subgroup_size,
            max_shared_memory: limits.max_compute_shared_memory_size,
            host_import: host_import.is_some(),
        };
        Ok(Device {
            _entry: entry,
            instance,
            physical,
            device,
            queue,
            queue_family,
            memory,
            host_import,
            info,
        })
    }

    /// What the selected device is.
    pub fn info(&self) -> &DeviceInfo {
        &self.info
    }

    /// Creates a compute pipeline from SPIR-V words whose entry point is `main`, with
    /// `buffers` storage buffers at set 0, bindings 0.., and `push_bytes` of push
    /// constants. Returns it with the time `vkCreateComputePipelines` took.
    pub fn compute_pipeline(
        &self,
        spirv: &[u32],
        buffers: u32,
        push_bytes: u32,
    ) -> Result<(ComputePipeline<'_>, Duration), GpuError> {
        let d = &self.device;
        let mci = vk::ShaderModuleCreateInfo::default().code(spirv);
        // SAFETY: the words live across the call; the driver copies them.
        let module = vkr("vkCreateShaderModule", unsafe {
            d.create_shader_module(&mci, None)
        })?;
        let bindings: Vec<_> = (0..buffers)
            .map(|b| {
                vk::DescriptorSetLayoutBinding::default()
                    .binding(b)
                    .descriptor_type(vk::DescriptorType::STORAGE_BUFFER)
                    .descriptor_count(1)
                    .stage_flags(vk::ShaderStageFlags::COMPUTE)
            })
            .collect();
        let sci = vk::DescriptorSetLayoutCreateInfo::default().bindings(&bindings);
        let mut p = ComputePipeline {
            dev: self,
            module,
            set_layout: vk::DescriptorSetLayout::null(),
            layout: vk::PipelineLayout::null(),
            pipeline: vk::Pipeline::null(),
            buffers,
        };
        // SAFETY: valid create info; the handle is destroyed with `p`.
        p.set_layout = vkr("vkCreateDescriptorSetLayout", unsafe {
            d.create_descriptor_set_layout(&sci, None)
        })?;
        let ranges = [vk::PushConstantRange::default()
            .stage_flags(vk::ShaderStageFlags::COMPUTE)
            .size(push_bytes.max(4))];
        let sets = [p.set_layout];
        let mut lci = vk::PipelineLayoutCreateInfo::default().set_layouts(&sets);
        if push_bytes > 0 {
            lci = lci.push_constant_ranges(&ranges);
        }
        // SAFETY: valid create info; the handle is destroyed with `p`.
        p.layout = vkr("vkCreatePipelineLayout", unsafe {
            d.create_pipeline_layout(&lci, None)
        })?;
        let stage = vk::PipelineShaderStageCreateInfo::default()
            .stage(vk::ShaderStageFlags::COMPUTE)
            .module(module)
            .name(c"main");
        let cci = [vk::ComputePipelineCreateInfo::default()
            .stage(stage)
            .layout(p.layout)];
        let t = Instant::now();
        // SAFETY: valid create info; the handle is destroyed with `p`.
        let r = unsafe { d.create_compute_pipelines(vk::PipelineCache::null(), &cci, None) };
        let took = t.elapsed();
        p.pipeline = vkr("vkCreateComputePipelines", r.map_err(|(_, e)| e))?[0];
        Ok((p, took))
    }

    fn memory_type(&self, bits: u32, flags: vk::MemoryPropertyFlags) -> Option<u32> {
        (0..self.memory.memory_type_count).find(|&i| {
            bits & (1 << i) != 0
                && self.memory.memory_types[i as usize]
                    .property_flags
                    .contains(flags)
        })
    }

    fn make_buffer(&self, size: usize) -> Result<Buf, GpuError> {
        let d = &self.device;
        let size = size.max(16);
        let want = vk::MemoryPropertyFlags::HOST_VISIBLE | vk::MemoryPropertyFlags::HOST_COHERENT;
        if let Some((ext, align)) = &self.host_import {
            let align = (*align).max(64) as usize;
            if let Some(host) = HostBlock::new(size, align) {
                let mut ext_ci = vk::ExternalMemoryBufferCreateInfo::default()
                    .handle_types(vk::ExternalMemoryHandleTypeFlags::HOST_ALLOCATION_EXT);
                let bci = vk::BufferCreateInfo::default()
                    .size(host.layout.size() as u64)
                    .usage(vk::BufferUsageFlags::STORAGE_BUFFER)
                    .push_next(&mut ext_ci);
                // SAFETY: valid create info.
                let buffer = vkr("vkCreateBuffer", unsafe { d.create_buffer(&bci, None) })?;
                let mut hp = vk::MemoryHostPointerPropertiesEXT::default();
                // SAFETY: the pointer is a live, aligned host allocation.
                let r = unsafe {
                    (ext.fp().get_memory_host_pointer_properties_ext)(
                        d.handle(),
                        vk::ExternalMemoryHandleTypeFlags::HOST_ALLOCATION_EXT,
                        host.ptr.cast(),
                        &mut hp,
                    )
                }
                .result();
                // SAFETY: the buffer is valid.
                let req = unsafe { d.get_buffer_memory_requirements(buffer) };
                let ty = r.ok().and_then(|_| {
                    self.memory_type(hp.memory_type_bits & req.memory_type_bits, want)
                });
                if let Some(ty) = ty {
                    let mut import = vk::ImportMemoryHostPointerInfoEXT::default()
                        .handle_type(vk::ExternalMemoryHandleTypeFlags::HOST_ALLOCATION_EXT)
                        .host_pointer(host.ptr.cast());
                    let aci = vk::MemoryAllocateInfo::default()
                        .allocation_size(host.layout.size() as u64)
                        .memory_type_index(ty)
                        .push_next(&mut import);
                    // SAFETY: the host block outlives the memory (both live in `Buf`,
                    // and `free_buffer` frees the memory before the block drops).
                    let memory = vkr("vkAllocateMemory(import)", unsafe {
                        d.allocate_memory(&aci, None)
                    })?;
                    // SAFETY: memory and buffer are valid and compatible.
                    vkr("vkBindBufferMemory", unsafe {
                        d.bind_buffer_memory(buffer, memory, 0)
                    })?;
                    return Ok(Buf {
                        buffer,
                        memory,
                        size,
                        mapped: host.ptr,
                        _host: Some(host),
                    });
                }
                // SAFETY: the buffer is unused.
                unsafe { d.destroy_buffer(buffer, None) };
            }
        }
        let bci = vk::BufferCreateInfo::default()
            .size(size as u64)
            .usage(vk::BufferUsageFlags::STORAGE_BUFFER);
        // SAFETY: valid create info.
        let buffer = vkr("vkCreateBuffer", unsafe { d.create_buffer(&bci, None) })?;
        // SAFETY: the buffer is valid.
        let req = unsafe { d.get_buffer_memory_requirements(buffer) };
        let ty = self
            .memory_type(req.memory_type_bits, want)
            .ok_or_else(|| GpuError::Unsupported("no host-visible coherent memory".into()))?;
        let aci = vk::MemoryAllocateInfo::default()
            .allocation_size(req.size)
            .memory_type_index(ty);
        // SAFETY: valid allocate info.
        let memory = vkr("vkAllocateMemory", unsafe { d.allocate_memory(&aci, None) })?;
        // SAFETY: memory and buffer are valid and compatible; the mapping stays until
        // the memory is freed.
        let mapped = unsafe {
            vkr(
                "vkBindBufferMemory",
                d.bind_buffer_memory(buffer, memory, 0),
            )?;
            vkr(
                "vkMapMemory",
                d.map_memory(memory, 0, vk::WHOLE_SIZE, vk::MemoryMapFlags::empty()),
            )?
        };
        Ok(Buf {
            buffer,
            memory,
            size,
            mapped: mapped.cast(),
            _host: None,
        })
    }

    fn free_buffer(&self, b: Buf) {
        // SAFETY: no pending work uses the buffer (dispatches wait for their fence).
        unsafe {
            self.device.destroy_buffer(b.buffer, None);
            self.device.free_memory(b.memory, None);
        }
        drop(b);
    }

    /// Runs `pipeline` over `groups` workgroups with `buffers` bound at set 0 bindings
    /// 0.. and `push` as push constants; the buffers' contents are updated in place.
    pub fn dispatch(
        &self,
        pipeline: &ComputePipeline<'_>,
        buffers: &mut [BufferData],
        push: &[u8],
        groups: [u32; 3],
    ) -> Result<(), GpuError> {
        if buffers.len() as u32 != pipeline.buffers {
            return Err(GpuError::Unsupported(format!(
                "pipeline has {} buffers, dispatch gives {}",
                pipeline.buffers,
                buffers.len()
            )));
        }
        let mut bufs = Vec::new();
        let r = self.dispatch_inner(pipeline, buffers, push, groups, &mut bufs);
        for b in bufs {
            self.free_buffer(b);
        }
        r
    }

    fn dispatch_inner(
        &self,
        pipeline: &ComputePipeline<'_>,
        buffers: &mut [BufferData],
        push: &[u8],
        groups: [u32; 3],
        bufs: &mut Vec<Buf>,
    ) -> Result<(), GpuError> {
        let d = &self.device;
        for data in buffers.iter() {
            let b = self.make_buffer(data.len())?;
            // SAFETY: the mapping is at least `data.len()` bytes and does not overlap.
            unsafe { std::ptr::copy_nonoverlapping(data.as_ptr(), b.mapped, data.len()) };
            bufs.push(b);
        }
        let n = buffers.len().max(1) as u32;
        let sizes = [vk::DescriptorPoolSize::default()
            .ty(vk::DescriptorType::STORAGE_BUFFER)
            .descriptor_count(n)];
        let pci = vk::DescriptorPoolCreateInfo::default()
            .max_sets(1)
            .pool_sizes(&sizes);
        // SAFETY: valid create info; destroyed below.
        let pool = vkr("vkCreateDescriptorPool", unsafe {
            d.create_descriptor_pool(&pci, None)
        })?;
        let cpi = vk::CommandPoolCreateInfo::default().queue_family_index(self.queue_family);
        // SAFETY: valid create info; destroyed below.
        let cmd_pool = match unsafe { d.create_command_pool(&cpi, None) } {
            Ok(p) => p,
            Err(e) => {
                // SAFETY: the pool is unused.
                unsafe { d.destroy_descriptor_pool(pool, None) };
                return Err(GpuError::Vk("vkCreateCommandPool", e));
            }
        };
        let fci = vk::FenceCreateInfo::default();
        let r = (|| {
            let layouts = [pipeline.set_layout];
            let ai = vk::DescriptorSetAllocateInfo::default()
                .descriptor_pool(pool)
                .set_layouts(&layouts);
            // SAFETY: the pool has room for one set of this layout.
            let set = vkr("vkAllocateDescriptorSets", unsafe {
                d.allocate_descriptor_sets(&ai)
            })?[0];
            let infos: Vec<[vk::DescriptorBufferInfo; 1]> = bufs
                .iter()
                .map(|b| {
                    [vk::DescriptorBufferInfo::default()
                        .buffer(b.buffer)
                        .range(b.size as u64)]
                })
                .collect();
            let writes: Vec<_> = infos
                .iter()
                .enumerate()
                .map(|(i, info)| {
                    vk::WriteDescriptorSet::default()
                        .dst_set(set)
                        .dst_binding(i as u32)
                        .descriptor_type(vk::DescriptorType::STORAGE_BUFFER)
                        .buffer_info(info)
                })
                .collect();
            // SAFETY: the writes point at live buffers.
            unsafe { d.update_descriptor_sets(&writes, &[]) };
            let cai = vk::CommandBufferAllocateInfo::default()
                .command_pool(cmd_pool)
                .level(vk::CommandBufferLevel::PRIMARY)
                .command_buffer_count(1);
            // SAFETY: valid allocate info; freed with the pool.
            let cmd = vkr("vkAllocateCommandBuffers", unsafe {
                d.allocate_command_buffers(&cai)
            })?[0];
            let bi = vk::CommandBufferBeginInfo::default()
                .flags(vk::CommandBufferUsageFlags::ONE_TIME_SUBMIT);
            // SAFETY: recording into a fresh command buffer with live handles.
            unsafe {
                vkr("vkBeginCommandBuffer", d.begin_command_buffer(cmd, &bi))?;
                d.cmd_bind_pipeline(cmd, vk::PipelineBindPoint::COMPUTE, pipeline.pipeline);
                d.cmd_bind_descriptor_sets(
                    cmd,
                    vk::PipelineBindPoint::COMPUTE,
                    pipeline.layout,
                    0,
                    &[set],
                    &[],
                );
                if !push.is_empty() {
                    d.cmd_push_constants(
                        cmd,
                        pipeline.layout,
                        vk::ShaderStageFlags::COMPUTE,
                        0,
                        push,
                    );
                }
                d.cmd_dispatch(cmd, groups[0], groups[1], groups[2]);
                let barrier = vk::MemoryBarrier::default()
                    .src_access_mask(vk::AccessFlags::SHADER_WRITE)
                    .dst_access_mask(vk::AccessFlags::HOST_READ);
                d.cmd_pipeline_barrier(
                    cmd,
                    vk::PipelineStageFlags::COMPUTE_SHADER,
                    vk::PipelineStageFlags::HOST,
                    vk::DependencyFlags::empty(),
                    &[barrier],
                    &[],
                    &[],
                );
                vkr("vkEndCommandBuffer", d.end_command_buffer(cmd))?;
            }
            // SAFETY: valid create info; destroyed below.
            let fence = vkr("vkCreateFence", unsafe { d.create_fence(&fci, None) })?;
            let cmds = [cmd];
            let submit = [vk::SubmitInfo::default().command_buffers(&cmds)];
            // SAFETY: the command buffer is recorded; the fence is unsignalled.
            let r = unsafe {
                d.queue_submit(self.queue, &submit, fence)
                    .and_then(|_| d.wait_for_fences(&[fence], true, 60_000_000_000))
            };
            // SAFETY: the fence is signalled or the submit failed; either way unused now.
            unsafe { d.destroy_fence(fence, None) };
            vkr("vkQueueSubmit/vkWaitForFences", r)
        })();
        // SAFETY: the work finished (or never started); nothing uses the pools.
        unsafe {
            d.destroy_command_pool(cmd_pool, None);
            d.destroy_descriptor_pool(pool, None);
        }
        r?;
        for (data, b) in buffers.iter_mut().zip(bufs.iter()) {
            // SAFETY: the mapping is at least `data.len()` bytes and the GPU is done.
            unsafe { std::ptr::copy_nonoverlapping(b.mapped, data.as_mut_ptr(), data.len()) };
        }
        Ok(())
    }
}

impl Drop for Device {
    fn drop(&mut self) {
        // SAFETY: every child object was destroyed by its owner (pipelines borrow the
        // device, so they are gone), and the queue is idle.
        unsafe {
            let _ = self.device.device_wait_idle();
            self.device.destroy_device(None);
            self.instance.destroy_instance(None);
        }
        let _ = self.physical;
    }
}

fn cstr(chars: &[c_char]) -> String {
    // SAFETY: Vulkan's fixed-size name arrays are NUL-terminated.
    unsafe { CStr::from_ptr(chars.as_ptr()) }
        .to_string_lossy()
        .into_owned()
}
