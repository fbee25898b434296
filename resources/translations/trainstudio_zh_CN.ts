<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>PageInfo</name>
    <message>
        <source>Datasets</source>
        <translation>数据集</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>Hyperparameters</source>
        <translation>超参数</translation>
    </message>
    <message>
        <source>Train</source>
        <translation>训练</translation>
    </message>
    <message>
        <source>Runs</source>
        <translation>运行记录</translation>
    </message>
    <message>
        <source>Browse datasets: samples, class balance and statistics.</source>
        <translation>浏览数据集：样本、类别分布和统计信息。</translation>
    </message>
    <message>
        <source>Build a model by dragging layers onto a canvas, with shapes, parameter counts and FLOPs shown live.</source>
        <translation>把层拖到画布上搭建模型，实时显示形状、参数量和 FLOPs。</translation>
    </message>
    <message>
        <source>Choose the optimizer, the learning-rate schedule and training options, with a preview of the learning-rate curve.</source>
        <translation>选择优化器、学习率调度和训练选项，并预览学习率曲线。</translation>
    </message>
    <message>
        <source>Train on the GPU or the CPU and watch loss, accuracy and resource use live.</source>
        <translation>在 GPU 或 CPU 上训练，实时查看损失、准确率和资源占用。</translation>
    </message>
    <message>
        <source>Compare runs, resume them from checkpoints, evaluate and export trained models.</source>
        <translation>比较运行记录，从检查点恢复训练，评估并导出训练好的模型。</translation>
    </message>
</context>
<context>
    <name>Screenshot</name>
    <message>
        <source>The window was not shown within %1 seconds.</source>
        <translation>窗口未在 %1 秒内显示。</translation>
    </message>
    <message>
        <source>The window did not paint within %1 seconds.</source>
        <translation>窗口未在 %1 秒内完成绘制。</translation>
    </message>
    <message>
        <source>Could not write the screenshot to %1.</source>
        <translation>无法将截图写入 %1。</translation>
    </message>
</context>
<context>
    <name>StudioOptions</name>
    <message>
        <source>Show the window, save a picture of it to &lt;file&gt; and quit.</source>
        <translation>显示窗口，将截图保存到 &lt;文件&gt; 后退出。</translation>
    </message>
    <message>
        <source>file</source>
        <translation>文件</translation>
    </message>
    <message>
        <source>Use this language instead of the system&apos;s: %1.</source>
        <translation>使用此语言而非系统语言：%1。</translation>
    </message>
    <message>
        <source>language</source>
        <translation>语言</translation>
    </message>
    <message>
        <source>Design, train and compare neural networks.</source>
        <translation>设计、训练和比较神经网络。</translation>
    </message>
    <message>
        <source>Unknown language &quot;%1&quot;; available: %2.</source>
        <translation>未知语言“%1”；可用的语言：%2。</translation>
    </message>
</context>
<context>
    <name>SystemInfo</name>
    <message numerus="yes">
        <source>CPU (%n threads)</source>
        <translation>
            <numerusform>CPU（%n 个线程）</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 and %n more</source>
        <translation>
            <numerusform>%1 及另外 %n 个</numerusform>
        </translation>
    </message>
    <message>
        <source>not built in</source>
        <translation>未包含在此构建中</translation>
    </message>
    <message>
        <source>%1 (built with %2)</source>
        <translation>%1（构建时使用 %2）</translation>
    </message>
    <message>
        <source>CUDA runtime</source>
        <translation>CUDA 运行时</translation>
    </message>
    <message>
        <source>%1 (%2 GiB, compute capability %3.%4)</source>
        <translation>%1（%2 GiB，计算能力 %3.%4）</translation>
    </message>
    <message>
        <source>GPUs</source>
        <translation>GPU</translation>
    </message>
    <message>
        <source>Design, train and compare neural networks.</source>
        <translation>设计、训练和比较神经网络。</translation>
    </message>
    <message>
        <source>TrainStudio is free software: you can redistribute it and/or modify it under the terms of the GNU General Public License, version 3 or (at your option) any later version (GPL-3.0-or-later).</source>
        <translation>TrainStudio 是自由软件：你可以依据 GNU 通用公共许可证第 3 版或（由你选择）任何更高版本（GPL-3.0-or-later）的条款重新分发和/或修改它。</translation>
    </message>
</context>
<context>
    <name>ts::ui::MainWindow</name>
    <message>
        <source>Device: %1</source>
        <translation>设备：%1</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <source>&amp;About TrainStudio</source>
        <translation>关于 TrainStudio(&amp;A)</translation>
    </message>
    <message>
        <source>About &amp;Qt</source>
        <translation>关于 Qt(&amp;Q)</translation>
    </message>
    <message>
        <source>About TrainStudio</source>
        <translation>关于 TrainStudio</translation>
    </message>
</context>
<context>
    <name>ts::widgets::LiveChart</name>
    <message>
        <source>Follow</source>
        <translation>跟随</translation>
    </message>
    <message>
        <source>Keep the newest data in view. Zooming or panning turns this off.</source>
        <translation>始终显示最新数据。缩放或平移会关闭此项。</translation>
    </message>
    <message>
        <source>Log scale</source>
        <translation>对数坐标</translation>
    </message>
    <message>
        <source>Smoothing</source>
        <translation>平滑</translation>
    </message>
    <message>
        <source>Weight of the exponential moving average (0 = raw values).</source>
        <translation>指数移动平均的权重（0 = 原始值）。</translation>
    </message>
    <message>
        <source>Chart</source>
        <translation>图表</translation>
    </message>
    <message>
        <source>Export chart as PNG</source>
        <translation>将图表导出为 PNG</translation>
    </message>
    <message>
        <source>PNG images (*.png)</source>
        <translation>PNG 图像 (*.png)</translation>
    </message>
    <message>
        <source>Export chart as SVG</source>
        <translation>将图表导出为 SVG</translation>
    </message>
    <message>
        <source>SVG images (*.svg)</source>
        <translation>SVG 图像 (*.svg)</translation>
    </message>
    <message>
        <source>Export chart data as CSV</source>
        <translation>将图表数据导出为 CSV</translation>
    </message>
    <message>
        <source>CSV files (*.csv)</source>
        <translation>CSV 文件 (*.csv)</translation>
    </message>
    <message>
        <source>chart</source>
        <translation>图表</translation>
    </message>
    <message>
        <source>Export failed</source>
        <translation>导出失败</translation>
    </message>
    <message>
        <source>Could not write %1. Check that the folder exists and is writable.</source>
        <translation>无法写入 %1。请检查文件夹是否存在且可写。</translation>
    </message>
    <message>
        <source>Export PNG…</source>
        <translation>导出 PNG…</translation>
    </message>
    <message>
        <source>Export SVG…</source>
        <translation>导出 SVG…</translation>
    </message>
    <message>
        <source>Export CSV…</source>
        <translation>导出 CSV…</translation>
    </message>
    <message>
        <source>Reset zoom</source>
        <translation>重置缩放</translation>
    </message>
    <message>
        <source>X axis</source>
        <translation>X 轴</translation>
    </message>
    <message>
        <source>Step</source>
        <translation>步数</translation>
    </message>
    <message>
        <source>Epoch</source>
        <translation>轮次</translation>
    </message>
    <message>
        <source>Wall time</source>
        <translation>运行时间</translation>
    </message>
</context>
</TS>
